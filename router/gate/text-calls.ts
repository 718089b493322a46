/**
 * Tool calls written into the text. A model whose provider does not parse its tool calls (no tool parser
 * in the server, a chat template that does not match) writes them as text: Hermes-style
 * `<tool_call>{"name": …, "arguments": …}</tool_call>` (Qwen, Llama on several hosts), Mistral's
 * `[TOOL_CALLS]`, `<function=name>` blocks (Llama 3.1's JSON, Qwen3-Coder's `<parameter=…>` list),
 * `<|python_tag|>`, or the bare JSON of a call as the whole answer (`{"name", "parameters"}`, as Llama's
 * templates ask; OpenAI's own shape, or a `tool_calls` list of them). The agent then gets markup where it
 * needed a call, and its turn ends. An answer whose words are only such calls is read back into calls (and
 * checked like any call); one that opens with call markup the router cannot read fails over like any call an
 * agent cannot run. Pure.
 */
import type { OfferedTools, ParamTypes } from './offered-tools.js';
import { parseJson, isRecord } from './safe-json.js';
import { isParameterList, xmlArguments } from './xml-parameters.js';

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
/** Llama 3.1's function tags, and its tag before a call's JSON. */
const FUNCTION_OPEN = '<function=';
const FUNCTION_CLOSE = '</function>';
const PYTHON_TAG = '<|python_tag|>';
/** Other models' call markup: known for what it is, not read. */
const FOREIGN = ['<｜tool▁calls▁begin｜>', '<|tool_calls_section_begin|>', '<|tool_call|>'];
const OPENERS = [TAG_OPEN, MISTRAL, FUNCTION_OPEN, PYTHON_TAG, ...FOREIGN];
export const FENCE = '```';

const WORDS: TextCallReading = { kind: 'words' };
const unreadable = (form: string): TextCallReading => ({
  kind: 'unreadable',
  detail: `a tool call written into the text (${form}) that cannot be read as one`,
});

/** The keys a call written as JSON may have: nothing else can be in it. */
const CALL_KEYS = ['name', 'arguments', 'parameters', 'type', 'id'];
/** OpenAI's shape of a call: the function in its own object. */
const WRAPPED_KEYS = ['function', 'type', 'id'];

const onlyKeys = (value: Record<string, unknown>, keys: readonly string[]): boolean =>
  Object.keys(value).every((key) => keys.includes(key));

/**
 * The call in a parsed JSON value (`{name, arguments | parameters}`, a `type` and an `id` besides, or
 * OpenAI's `{type, function: {…}}`), or null.
 */
function callOf(value: unknown): TextCall | null {
  if (!isRecord(value)) return null;
  if (isRecord(value.function) && onlyKeys(value, WRAPPED_KEYS)) return callOf(value.function);
  if (typeof value.name !== 'string' || !onlyKeys(value, CALL_KEYS)) return null;
  const args = value.arguments ?? value.parameters ?? {};
  if (typeof args === 'string') return { name: value.name, args };
  return isRecord(args) ? { name: value.name, args: JSON.stringify(args) } : null;
}

/** The calls in a JSON text: one call, an array of them, or `{"tool_calls": […]}`; null when it is something else. */
function jsonCalls(text: string): TextCall[] | null {
  const parsed = parseJson(text);
  if (!parsed.ok) return null;
  const { value } = parsed;
  const listed = isRecord(value) && Array.isArray(value.tool_calls) && onlyKeys(value, ['tool_calls']);
  const values = listed ? (value.tool_calls as unknown[]) : Array.isArray(value) ? value : [value];
  const calls = values.map(callOf);
  return calls.length > 0 && calls.every((call) => call !== null) ? (calls as TextCall[]) : null;
}

/** `<tool_call>…</tool_call>` blocks, nothing but blank between them (the last one's close may be missing). */
function taggedCalls(text: string, offered: OfferedTools): TextCall[] | null {
  const calls: TextCall[] = [];
  let rest = text;
  while (rest.startsWith(TAG_OPEN)) {
    const close = rest.indexOf(TAG_CLOSE);
    const body = rest.slice(TAG_OPEN.length, close === -1 ? rest.length : close).trim();
    const read = body.startsWith(FUNCTION_OPEN) ? functionCalls(body, offered) : jsonCalls(body);
    if (read === null) return null;
    calls.push(...read);
    rest = close === -1 ? '' : rest.slice(close + TAG_CLOSE.length).trimStart();
  }
  return rest === '' ? calls : null;
}

/** A function block's arguments as JSON text: a JSON object (Llama), or a parameter list (Qwen3-Coder). */
function functionArguments(body: string, types: ParamTypes | undefined): string | null {
  if (isParameterList(body)) return xmlArguments(body, types);
  const parsed = parseJson(body);
  return parsed.ok && isRecord(parsed.value) ? JSON.stringify(parsed.value) : null;
}

/**
 * `<function=name>…</function>` blocks, nothing but blank between them (the last one's close may be
 * missing): Llama 3.1's with JSON arguments, Qwen3-Coder's with `<parameter=…>` ones, typed by the offered
 * tool's schema.
 */
function functionCalls(text: string, offered: OfferedTools): TextCall[] | null {
  const calls: TextCall[] = [];
  let rest = text;
  while (rest.startsWith(FUNCTION_OPEN)) {
    const nameEnd = rest.indexOf('>');
    if (nameEnd === -1) return null;
    const name = rest.slice(FUNCTION_OPEN.length, nameEnd).trim();
    const close = rest.indexOf(FUNCTION_CLOSE, nameEnd);
    const body = rest.slice(nameEnd + 1, close === -1 ? rest.length : close).trim();
    const args = /^[\w.-]+$/.test(name) ? functionArguments(body, offered.paramTypes?.(name)) : null;
    if (args === null) return null;
    calls.push({ name, args });
    rest = close === -1 ? '' : rest.slice(close + FUNCTION_CLOSE.length).trimStart();
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

/** Each markup the router reads, and its reader (given the text past the opener, and the whole text). */
type MarkupReader = (after: string, text: string, offered: OfferedTools) => TextCall[] | null;
const MARKUP: readonly [string, MarkupReader][] = [
  [TAG_OPEN, (_, text, offered) => taggedCalls(text, offered)],
  [MISTRAL, (after) => mistralCalls(after)],
  [FUNCTION_OPEN, (_, text, offered) => functionCalls(text, offered)],
  [PYTHON_TAG, (after) => jsonCalls(after.trim())],
];

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
export function readTextCalls(words: string, offered: OfferedTools): TextCallReading {
  // With no tool offered, a call written as text is text: there is nothing it could call.
  if (offered.size === 0) return WORDS;
  const text = words.trim();
  const markup = MARKUP.find(([opener]) => text.startsWith(opener));
  if (markup !== undefined) {
    const [opener, read] = markup;
    const calls = read(text.slice(opener.length), text, offered);
    return calls === null ? unreadable(opener) : { kind: 'calls', calls };
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

/** The keys JSON that may be calls begins with (`jsonCalls`): JSON whose first key is another is no call. */
const FIRST_KEYS = [...CALL_KEYS, 'function', 'tool_calls'];

/** The start of JSON (`{`, or `[` then `{`): maybe a call while its first key may be one of a call's. */
function jsonStart(start: string): TextStart {
  let rest = start.startsWith('[') ? start.slice(1).trimStart() : start;
  if (rest === '') return 'unknown';
  if (!rest.startsWith('{')) return 'words';
  rest = rest.slice(1).trimStart();
  if (rest === '') return 'unknown';
  if (!rest.startsWith('"')) return 'words';
  const close = rest.indexOf('"', 1);
  if (close !== -1) return FIRST_KEYS.includes(rest.slice(1, close)) ? 'maybe_calls' : 'words';
  return FIRST_KEYS.some((key) => key.startsWith(rest.slice(1))) ? 'unknown' : 'words';
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
