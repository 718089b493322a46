/**
 * Tool calls written into the text. A model whose provider does not parse its tool calls (no tool parser
 * in the server, a chat template that does not match) writes them as text: Hermes-style
 * `<tool_call>{"name": …, "arguments": …}</tool_call>` (Qwen, Llama on several hosts), Mistral's
 * `[TOOL_CALLS]`, or the bare JSON of a call as the whole answer. The agent then gets markup where it needed
 * a call, and its turn ends. An answer whose words are only such calls is read back into calls when they are
 * JSON (and checked like any call); one that opens with call markup in another form cannot be read, and
 * fails over like any call an agent cannot run. Pure.
 */
import { parseJson, isRecord } from './safe-json.js';

/** A call read from the text: its name and its arguments as JSON text. */
export interface TextCall {
  name: string;
  args: string;
}

/** What an answer's text holds: calls written into it, call markup that cannot be read, or words. */
export type TextCallReading =
  { kind: 'calls'; calls: TextCall[] } | { kind: 'unreadable'; detail: string } | { kind: 'words' };

/** Hermes-style call markup's tags, and Mistral's calls' opener. */
export const TAG_OPEN = '<tool_call>';
export const TAG_CLOSE = '</tool_call>';
export const MISTRAL = '[TOOL_CALLS]';
const MISTRAL_ARGS = '[ARGS]';
const MISTRAL_ID = '[CALL_ID]';
/** Other models' call markup: known for what it is, not read. */
const FOREIGN = [
  '<function=',
  '<|python_tag|>',
  '<｜tool▁calls▁begin｜>',
  '<|tool_calls_section_begin|>',
  '<|tool_call|>',
];
const OPENERS = [TAG_OPEN, MISTRAL, ...FOREIGN];
export const FENCE = '```';

const WORDS: TextCallReading = { kind: 'words' };
const unreadable = (form: string): TextCallReading => ({
  kind: 'unreadable',
  detail: `a tool call written into the text (${form}) that cannot be read as one`,
});

/** The call in a parsed JSON value (`{name, arguments | parameters}`, a `type` besides), or null. */
function callOf(value: unknown): TextCall | null {
  if (!isRecord(value) || typeof value.name !== 'string') return null;
  if (Object.keys(value).some((key) => !['name', 'arguments', 'parameters', 'type'].includes(key)))
    return null;
  const args = value.arguments ?? value.parameters ?? {};
  if (typeof args === 'string') return { name: value.name, args };
  return isRecord(args) ? { name: value.name, args: JSON.stringify(args) } : null;
}

/** The calls in a JSON text: one call, or an array of them; null when it is something else. */
function jsonCalls(text: string): TextCall[] | null {
  const parsed = parseJson(text);
  if (!parsed.ok) return null;
  const values = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const calls = values.map(callOf);
  return calls.length > 0 && calls.every((call) => call !== null) ? (calls as TextCall[]) : null;
}

/** `<tool_call>…</tool_call>` blocks, nothing but blank between them (the last one's close may be missing). */
function taggedCalls(text: string): TextCall[] | null {
  const calls: TextCall[] = [];
  let rest = text;
  while (rest.startsWith(TAG_OPEN)) {
    const close = rest.indexOf(TAG_CLOSE);
    const body = rest.slice(TAG_OPEN.length, close === -1 ? rest.length : close);
    const read = jsonCalls(body.trim());
    if (read === null) return null;
    calls.push(...read);
    rest = close === -1 ? '' : rest.slice(close + TAG_CLOSE.length).trimStart();
  }
  return rest === '' ? calls : null;
}

/** Mistral's calls after `[TOOL_CALLS]`: a JSON array, or `name[ARGS]{…}` (with `[CALL_ID]id`) each. */
function mistralCalls(text: string): TextCall[] | null {
  const body = text.trim();
  if (body.startsWith('[')) return jsonCalls(body);
  const calls: TextCall[] = [];
  for (const part of body.split(MISTRAL)) {
    const args = part.indexOf(MISTRAL_ARGS);
    if (args === -1) return null;
    const name = part.slice(0, args).split(MISTRAL_ID)[0]?.trim() ?? '';
    const call = callOf({ name, arguments: part.slice(args + MISTRAL_ARGS.length).trim() });
    if (call === null || name === '') return null;
    calls.push(call);
  }
  return calls;
}

/** The JSON inside a fence that is the whole text (```json or bare ```), or the text itself. */
function unfenced(text: string): string {
  if (!text.startsWith(FENCE) || !text.endsWith(FENCE) || text.length < 2 * FENCE.length) return text;
  const inner = text.slice(FENCE.length, -FENCE.length);
  const newline = inner.indexOf('\n');
  const info = newline === -1 ? '' : inner.slice(0, newline).trim();
  return info === '' || info === 'json' ? inner.slice(newline + 1).trim() : text;
}

/**
 * What an answer's words (its text past a think block) are: calls written into them, call markup that cannot
 * be read, or words. Bare JSON counts only as calls to tools in `offered`, so a JSON answer is never taken
 * for one; markup is a call whatever it names (`toolCallProblem` judges the name, as for any call). With no
 * tool offered, nothing is a call.
 *
 * @example readTextCalls('<tool_call>{"name":"Read","arguments":{"path":"a"}}</tool_call>', new Set(['Read']))
 * // { kind: 'calls', calls: [{ name: 'Read', args: '{"path":"a"}' }] }
 */
export function readTextCalls(words: string, offered: ReadonlySet<string>): TextCallReading {
  // With no tool offered, a call written as text is text: there is nothing it could call.
  if (offered.size === 0) return WORDS;
  const text = words.trim();
  if (text.startsWith(TAG_OPEN)) {
    const calls = taggedCalls(text);
    return calls === null ? unreadable(TAG_OPEN) : { kind: 'calls', calls };
  }
  if (text.startsWith(MISTRAL)) {
    const calls = mistralCalls(text.slice(MISTRAL.length));
    return calls === null ? unreadable(MISTRAL) : { kind: 'calls', calls };
  }
  const foreign = FOREIGN.find((opener) => text.startsWith(opener));
  if (foreign !== undefined) return unreadable(foreign);
  const json = unfenced(text);
  if (!json.startsWith('{') && !json.startsWith('[')) return WORDS;
  const calls = jsonCalls(json);
  return calls !== null && calls.every((call) => offered.has(call.name)) ? { kind: 'calls', calls } : WORDS;
}

/** What the first characters of an answer's text (leading blanks dropped) tell while it streams. */
export type TextStart = 'unknown' | 'maybe_calls' | 'words';

/** The keys a call written as JSON has (`callOf`): JSON whose first key is another is no call. */
const CALL_KEYS = ['name', 'arguments', 'parameters', 'type'];

/** The start of JSON (`{`, or `[` then `{`): maybe a call while its first key may be one of a call's. */
function jsonStart(start: string): TextStart {
  let rest = start.startsWith('[') ? start.slice(1).trimStart() : start;
  if (rest === '') return 'unknown';
  if (!rest.startsWith('{')) return 'words';
  rest = rest.slice(1).trimStart();
  if (rest === '') return 'unknown';
  if (!rest.startsWith('"')) return 'words';
  const close = rest.indexOf('"', 1);
  if (close !== -1) return CALL_KEYS.includes(rest.slice(1, close)) ? 'maybe_calls' : 'words';
  return CALL_KEYS.some((key) => key.startsWith(rest.slice(1))) ? 'unknown' : 'words';
}

/**
 * Whether a streamed answer whose text so far (leading blanks dropped) is `start` may be calls written as
 * text: not known yet (blank, the start of call markup, of a fence or of JSON), maybe (call markup, JSON
 * whose first key is a call's, alone or in a JSON fence: only its end tells), or words. Only the first few
 * characters ever wait: a word, a markdown link or JSON of another shape goes on at once.
 *
 * @example textStart('<tool_') // 'unknown'
 * @example textStart('{"name"') // 'maybe_calls'
 * @example textStart('Sure, ') // 'words'
 */
export function textStart(start: string): TextStart {
  if (OPENERS.some((opener) => start.startsWith(opener))) return 'maybe_calls';
  if (start === '' || OPENERS.some((opener) => opener.startsWith(start))) return 'unknown';
  if (start.startsWith('{') || start.startsWith('[')) return jsonStart(start);
  if (FENCE.startsWith(start)) return 'unknown';
  if (!start.startsWith(FENCE)) return 'words';
  const newline = start.indexOf('\n');
  if (newline === -1) return 'unknown';
  const info = start.slice(FENCE.length, newline).trim();
  if (info !== '' && info !== 'json') return 'words';
  return jsonStart(start.slice(newline + 1).trimStart());
}
