/**
 * The markup each model family writes its tool calls in, when its provider leaves them in the text, and a
 * reader for each (`MARKUP`): Hermes-style `<tool_call>` blocks (Qwen, Llama on several hosts; GLM's
 * `<arg_key>` pairs inside), Mistral's `[TOOL_CALLS]`, `<function=name>` blocks (Llama 3.1's JSON,
 * Qwen3-Coder's `<parameter=…>` list), Llama's `<|python_tag|>`, Granite's and Phi-4's `<|tool_call|>`,
 * Kimi K2's and DeepSeek's call tokens. A
 * reader gives the calls, or null when the text is not wholly such calls. Arguments written untyped are typed
 * by the offered tool's schema (`xml-parameters.ts`). Pure.
 */
import type { OfferedTools } from './offered-tools.js';
import { parseJson, isRecord } from './safe-json.js';
import { argPairs, isParameterList, NAME, xmlArguments } from './xml-parameters.js';

/** A call read from the text: its name and its arguments as JSON text. */
export interface TextCall {
  name: string;
  args: string;
}

/** Hermes-style call markup's tags, Mistral's calls' opener, and a markdown fence. */
export const TAG_OPEN = '<tool_call>';
export const TAG_CLOSE = '</tool_call>';
export const MISTRAL = '[TOOL_CALLS]';
export const FENCE = '```';
const MISTRAL_ARGS = '[ARGS]';
const MISTRAL_ID = '[CALL_ID]';
const FUNCTION_OPEN = '<function=';
const FUNCTION_CLOSE = '</function>';
const PYTHON_TAG = '<|python_tag|>';
/** IBM Granite's and Phi-4's tags around a JSON list of calls (the close is Phi's, and optional). */
const LIST_TAG = '<|tool_call|>';
const LIST_TAG_CLOSE = '<|/tool_call|>';
const KIMI = {
  open: '<|tool_calls_section_begin|>',
  close: '<|tool_calls_section_end|>',
  call: '<|tool_call_begin|>',
  callEnd: '<|tool_call_end|>',
  args: '<|tool_call_argument_begin|>',
};
const DEEPSEEK = {
  open: '<｜tool▁calls▁begin｜>',
  close: '<｜tool▁calls▁end｜>',
  call: '<｜tool▁call▁begin｜>',
  callEnd: '<｜tool▁call▁end｜>',
  sep: '<｜tool▁sep｜>',
};

/** The keys a call written as JSON may have: nothing else can be in it. */
export const CALL_KEYS = ['name', 'arguments', 'parameters', 'type', 'id'];
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
export function jsonCalls(text: string): TextCall[] | null {
  const parsed = parseJson(text);
  if (!parsed.ok) return null;
  const { value } = parsed;
  const listed = isRecord(value) && Array.isArray(value.tool_calls) && onlyKeys(value, ['tool_calls']);
  const values = listed ? (value.tool_calls as unknown[]) : Array.isArray(value) ? value : [value];
  const calls = values.map(callOf);
  return calls.length > 0 && calls.every((call) => call !== null) ? (calls as TextCall[]) : null;
}

/** The JSON inside a markdown fence (```json or bare ```) that is the whole text, or the text itself. */
export function withoutFence(text: string): string {
  if (!text.startsWith(FENCE) || !text.endsWith(FENCE) || text.length < 2 * FENCE.length) return text;
  const inner = text.slice(FENCE.length, -FENCE.length);
  const newline = inner.indexOf('\n');
  const info = newline === -1 ? '' : inner.slice(0, newline).trim();
  return info === '' || info === 'json' ? inner.slice(newline + 1).trim() : text;
}

/** A JSON object's text, as one line, or null. */
function jsonObject(text: string): string | null {
  const parsed = parseJson(text.trim());
  return parsed.ok && isRecord(parsed.value) ? JSON.stringify(parsed.value) : null;
}

/**
 * What stands between `open` and `close` in a text made only of such blocks and blanks (the last close may
 * be missing), in order; null when the text holds anything else.
 */
function blocks(text: string, open: string, close: string): string[] | null {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.startsWith(open)) {
    const end = rest.indexOf(close, open.length);
    parts.push(rest.slice(open.length, end === -1 ? rest.length : end).trim());
    rest = end === -1 ? '' : rest.slice(end + close.length).trimStart();
  }
  return rest === '' && parts.length > 0 ? parts : null;
}

/** Each part read into calls, all of them; null when one is not. */
function allCalls(parts: string[] | null, read: (part: string) => TextCall[] | null): TextCall[] | null {
  if (parts === null) return null;
  const calls: TextCall[] = [];
  for (const part of parts) {
    const partCalls = read(part);
    if (partCalls === null) return null;
    calls.push(...partCalls);
  }
  return calls;
}

/** A call named `name` with `args`, when the name is one and the arguments are. */
const named = (name: string, args: string | null): TextCall[] | null =>
  NAME.test(name) && args !== null ? [{ name, args }] : null;

/** GLM's `name` then `<arg_key>`/`<arg_value>` pairs, inside a `<tool_call>`. */
function glmCall(body: string, offered: OfferedTools): TextCall[] | null {
  const at = body.indexOf('<');
  const name = (at === -1 ? body : body.slice(0, at)).trim();
  return named(name, argPairs(at === -1 ? '' : body.slice(at), offered.paramTypes?.(name)));
}

/** What a `<tool_call>` block holds: JSON calls (in a fence, too), a `<function=…>` block, or GLM's pairs. */
function taggedBody(body: string, offered: OfferedTools): TextCall[] | null {
  if (body.startsWith(FUNCTION_OPEN)) return functionCalls(body, offered);
  const json = withoutFence(body).trim();
  return json.startsWith('{') || json.startsWith('[') ? jsonCalls(json) : glmCall(body, offered);
}

/** `<function=name>…</function>` blocks: Llama 3.1's JSON arguments, Qwen3-Coder's `<parameter=…>` list. */
function functionCalls(text: string, offered: OfferedTools): TextCall[] | null {
  return allCalls(blocks(text, FUNCTION_OPEN, FUNCTION_CLOSE), (part) => {
    const nameEnd = part.indexOf('>');
    if (nameEnd === -1) return null;
    const name = part.slice(0, nameEnd).trim();
    const body = part.slice(nameEnd + 1).trim();
    const types = offered.paramTypes?.(name);
    return named(name, isParameterList(body) ? xmlArguments(body, types) : jsonObject(body));
  });
}

/** Mistral's calls after `[TOOL_CALLS]`: a JSON array, or `name[ARGS]{…}` (with `[CALL_ID]id`) each. */
function mistralCalls(text: string): TextCall[] | null {
  const body = text.trim();
  if (body.startsWith('[')) return jsonCalls(body);
  return allCalls(body.split(MISTRAL), (part) => {
    const args = part.indexOf(MISTRAL_ARGS);
    if (args === -1) return null;
    const name = part.slice(0, args).split(MISTRAL_ID)[0]?.trim() ?? '';
    const call = callOf({ name, arguments: part.slice(args + MISTRAL_ARGS.length).trim() });
    return call === null || name === '' ? null : [call];
  });
}

/** The calls of a token-delimited section (its end token may be missing). */
function section(
  text: string,
  tokens: { open: string; close: string; call: string; callEnd: string },
): string[] | null {
  const end = text.indexOf(tokens.close);
  if (end !== -1 && text.slice(end + tokens.close.length).trim() !== '') return null;
  return blocks(text.slice(tokens.open.length, end === -1 ? text.length : end), tokens.call, tokens.callEnd);
}

/** Kimi K2's `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}` calls. */
function kimiCalls(text: string): TextCall[] | null {
  return allCalls(section(text, KIMI), (part) => {
    const [id = '', args = ''] = part.split(KIMI.args);
    const name = id
      .trim()
      .replace(/^functions\./, '')
      .replace(/:\d+$/, '');
    return part.includes(KIMI.args) ? named(name, jsonObject(args)) : null;
  });
}

/** DeepSeek's calls: `function<｜tool▁sep｜>name` and a `json` fence (V3, R1), or `name<｜tool▁sep｜>{…}`. */
function deepSeekCalls(text: string): TextCall[] | null {
  return allCalls(section(text, DEEPSEEK), (part) => {
    const [head = '', rest = ''] = part.split(DEEPSEEK.sep);
    if (!part.includes(DEEPSEEK.sep)) return null;
    if (head.trim() !== 'function') return named(head.trim(), jsonObject(rest));
    const newline = rest.indexOf('\n');
    const name = newline === -1 ? rest : rest.slice(0, newline);
    const fenced = withoutFence(rest.slice(newline + 1).trim());
    return named(name.trim(), newline === -1 ? null : jsonObject(fenced));
  });
}

/** A reader of one markup, given the whole text (it opens with the markup) and the tools offered. */
type MarkupReader = (text: string, offered: OfferedTools) => TextCall[] | null;

/** Each markup the router reads, by its opener, and its reader. */
export const MARKUP: readonly [string, MarkupReader][] = [
  [
    TAG_OPEN,
    (text, offered) => allCalls(blocks(text, TAG_OPEN, TAG_CLOSE), (body) => taggedBody(body, offered)),
  ],
  [MISTRAL, (text) => mistralCalls(text.slice(MISTRAL.length))],
  [FUNCTION_OPEN, functionCalls],
  [PYTHON_TAG, (text) => jsonCalls(text.slice(PYTHON_TAG.length).trim())],
  [LIST_TAG, (text) => jsonCalls(text.slice(LIST_TAG.length).replace(LIST_TAG_CLOSE, '').trim())],
  [KIMI.open, kimiCalls],
  [DEEPSEEK.open, deepSeekCalls],
];
