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

/** The shortest front part of a secret blotted out where a cut ends the words: shorter is too common a text. */
export const SECRET_CUT_MIN = 8;

/**
 * What a refusal's words may quote of what the attempt sent the provider: its key, and the values of the
 * provider's own headers (a key may be sent there, as `x-goog-api-key` or `api-key`), each whole and each
 * of its blank-separated parts (`Bearer <key>`: the provider may quote the key alone). A header value or
 * part shorter than {@link SECRET_CUT_MIN} is no key, and blotting it would garble the words.
 */
export function attemptSecrets(apiKey: string | null, headers: Readonly<Record<string, string>>): string[] {
  const secrets = apiKey === null || apiKey === '' ? [] : [apiKey];
  for (const value of Object.values(headers))
    for (const part of [value.trim(), ...value.split(/\s+/)])
      if (part.length >= SECRET_CUT_MIN && !secrets.includes(part)) secrets.push(part);
  return secrets;
}

/**
 * `text` (a refusal's body or its words) with every occurrence of each secret blotted out as `[key]`, and
 * the front part of a secret (at least {@link SECRET_CUT_MIN} characters) that ends it, before a closing
 * `…`, too: where a body or its words were cut, they may end in the middle of a key.
 *
 * @example withoutSecrets('bad key sk-live-01…', ['sk-live-0123456789']) // "bad key [key]…"
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let blotted = text;
  for (const secret of secrets) if (secret !== '') blotted = blotted.split(secret).join('[key]');
  return withoutCutSecret(blotted, secrets);
}

/** `text` with the longest front part of a secret that ends it (before a closing `…`) blotted out. */
function withoutCutSecret(text: string, secrets: readonly string[]): string {
  const ellipsis = text.endsWith('…') ? '…' : '';
  const body = text.slice(0, text.length - ellipsis.length);
  const cut = Math.max(0, ...secrets.map((secret) => cutSecretLength(body, secret)));
  return cut === 0 ? text : `${body.slice(0, body.length - cut)}[key]${ellipsis}`;
}

/** How long a front part of `secret`, short of the whole and at least {@link SECRET_CUT_MIN} long, ends `text`; 0 for none. */
function cutSecretLength(text: string, secret: string): number {
  for (let length = Math.min(secret.length - 1, text.length); length >= SECRET_CUT_MIN; length--)
    if (text.endsWith(secret.slice(0, length))) return length;
  return 0;
}
