/**
 * The upstream's own words for a request it refused (a 4xx): what the agent needs to see when every model
 * refused its request, since the router's kind (`invalid_request`) says nothing of what was wrong. Only the
 * client that sent the request is given them: they may quote the request, so logs, history, traces and
 * events never hold them. Pure.
 */
import { isRecord, parseJson } from './safe-json.js';

/** The longest quotation an error message carries. */
export const REFUSAL_WORDS_MAX = 300;

const asText = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

/** A FastAPI/pydantic validation list (vLLM and other servers): `[{ loc: [...], msg: '...' }]`. */
function validationWords(detail: unknown): string | null {
  if (!Array.isArray(detail)) return null;
  const first: unknown = detail[0];
  if (!isRecord(first)) return null;
  const { loc, msg } = first;
  const words = asText(msg);
  if (words === null) return null;
  const where = Array.isArray(loc) ? loc.filter((part) => part !== 'body').join('.') : '';
  return where === '' ? words : `${where}: ${words}`;
}

/** The message of a JSON error body in the shapes providers use, or null. */
function jsonWords(parsed: unknown): string | null {
  // Google's OpenAI-compatible API wraps its error in a list: `[{ error: { message } }]`.
  const body: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isRecord(body)) return null;
  const { error, message, detail } = body;
  const inner = isRecord(error) ? asText(error.message) : null;
  return inner ?? asText(error) ?? asText(message) ?? asText(detail) ?? validationWords(detail);
}

const MESSAGE_FIELD = /"message"\s*:\s*("(?:[^"\\]|\\.)*")/;

/** The first whole `"message": "..."` of a JSON body cut short (the snippet is its first 2 KB). */
function cutJsonWords(text: string): string | null {
  const quoted = MESSAGE_FIELD.exec(text)?.[1];
  if (quoted === undefined) return null;
  const parsed = parseJson(quoted);
  return parsed.ok ? asText(parsed.value) : null;
}

/** Whitespace folded to single spaces, cut to {@link REFUSAL_WORDS_MAX} characters. */
function folded(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= REFUSAL_WORDS_MAX ? one : `${one.slice(0, REFUSAL_WORDS_MAX - 1)}…`;
}

/**
 * The words of a refusal's body (its first bytes): the JSON error's message in the usual shapes (OpenAI's
 * `error.message`, a bare `error` or `message`, FastAPI's `detail`, Google's list of one error; the first
 * whole `"message"` of a body cut short), else plain text; null for an empty body, an HTML page or JSON that
 * carries no message.
 *
 * @example refusalWords('{"error":{"message":"Invalid value: \'wizard\'"}}') // "Invalid value: 'wizard'"
 */
export function refusalWords(snippet: string): string | null {
  const text = snippet.trim();
  if (text === '' || text.startsWith('<')) return null; // an HTML (or any markup) page: no words to quote
  if (text.startsWith('{') || text.startsWith('[')) {
    const parsed = parseJson(text);
    const words = parsed.ok ? jsonWords(parsed.value) : cutJsonWords(text);
    return words === null ? null : folded(words);
  }
  return folded(text);
}

/** `words` with every occurrence of `secret` (the key the attempt sent) blotted out. */
export function withoutSecret(words: string, secret: string | null): string {
  return secret === null || secret === '' ? words : words.split(secret).join('[key]');
}
