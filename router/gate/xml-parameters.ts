/**
 * Arguments written as tagged text, values untyped: Qwen3-Coder's, as its chat template writes them inside
 * `<function=name>` (one `<parameter=key>\nvalue\n</parameter>` each), and GLM's inside `<tool_call>` (one
 * `<arg_key>key</arg_key><arg_value>value</arg_value>` pair each). Their own parsers type each value by the
 * tool's schema, and so does this: a string stays as written, an integer, number or boolean is read as one, an
 * object or array (or a parameter whose schema gives no one type) as JSON when it is, and a parameter the
 * schema does not list stays a string. Pure.
 */
import { parseJson } from './safe-json.js';
import type { ParamTypes } from './offered-tools.js';

const PARAM_OPEN = '<parameter=';
const PARAM_CLOSE = '</parameter>';
const KEY_OPEN = '<arg_key>';
const KEY_CLOSE = '</arg_key>';
const VALUE_OPEN = '<arg_value>';
const VALUE_CLOSE = '</arg_value>';
/** What a tool's or a parameter's name written into the text may be. */
export const NAME = /^[\w.-]+$/;

/** True when a function block's body is a parameter list (or empty: a call without arguments). */
export const isParameterList = (body: string): boolean => body === '' || body.startsWith(PARAM_OPEN);

/** A value as its parameter's type has it (the text itself when it is not one). */
function typedValue(text: string, type: string | undefined): unknown {
  if (type === undefined || type === 'string') return text;
  const trimmed = text.trim();
  if (type === 'boolean') return trimmed === 'true' ? true : trimmed === 'false' ? false : text;
  const parsed = parseJson(trimmed);
  if (!parsed.ok) return text;
  if (type === 'integer') return Number.isInteger(parsed.value) ? parsed.value : text;
  if (type === 'number') return typeof parsed.value === 'number' ? parsed.value : text;
  return parsed.value;
}

/**
 * The arguments of a `<parameter=…>` list as a JSON object's text, typed by `types` (the tool's parameter
 * types, when its schema lists them); null when the text is something else.
 *
 * @example xmlArguments('<parameter=limit>\n20\n</parameter>', new Map([['limit', 'integer']])) // '{"limit":20}'
 */
export function xmlArguments(text: string, types: ParamTypes | undefined): string | null {
  const args: Record<string, unknown> = {};
  let rest = text.trim();
  while (rest.startsWith(PARAM_OPEN)) {
    const nameEnd = rest.indexOf('>');
    const close = rest.indexOf(PARAM_CLOSE, nameEnd);
    if (nameEnd === -1 || close === -1) return null;
    const name = rest.slice(PARAM_OPEN.length, nameEnd).trim();
    if (!NAME.test(name)) return null;
    // The template puts the value on lines of its own: those two line breaks are not the value's.
    const value = rest
      .slice(nameEnd + 1, close)
      .replace(/^\r?\n/, '')
      .replace(/\r?\n$/, '');
    args[name] = typedValue(value, types?.get(name));
    rest = rest.slice(close + PARAM_CLOSE.length).trim();
  }
  return rest === '' ? JSON.stringify(args) : null;
}

/**
 * GLM's `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs as a JSON object's text, typed by `types` (each
 * value trimmed, as GLM's own parser does); null when the text is something else.
 *
 * @example argPairs('<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>', undefined) // '{"path":"a.txt"}'
 */
export function argPairs(text: string, types: ParamTypes | undefined): string | null {
  const args: Record<string, unknown> = {};
  let rest = text.trim();
  while (rest.startsWith(KEY_OPEN)) {
    const keyEnd = rest.indexOf(KEY_CLOSE);
    const key = rest.slice(KEY_OPEN.length, keyEnd).trim();
    rest = keyEnd === -1 ? '' : rest.slice(keyEnd + KEY_CLOSE.length).trimStart();
    const valueEnd = rest.indexOf(VALUE_CLOSE);
    if (!NAME.test(key) || !rest.startsWith(VALUE_OPEN) || valueEnd === -1) return null;
    args[key] = typedValue(rest.slice(VALUE_OPEN.length, valueEnd).trim(), types?.get(key));
    rest = rest.slice(valueEnd + VALUE_CLOSE.length).trim();
  }
  return rest === '' ? JSON.stringify(args) : null;
}
