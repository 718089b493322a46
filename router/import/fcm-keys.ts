/**
 * One provider's entry of a free-coding-models `apiKeys`: the keys it holds, the environment variables it
 * names with `${NAME}`, or why it can be neither. A problem never quotes the value: it may be a key.
 */
import { API_KEY_MESSAGE, isApiKeyText } from '../config/schema.js';

/** Where one provider's keys come from, as its `apiKeys` entry says. */
export type FcmKeys =
  /** Keys written out, trimmed, without repeats. */
  | { kind: 'keys'; keys: string[] }
  /** `${NAME}` placeholders: the key is that variable's value. */
  | { kind: 'env'; names: string[] }
  /** Nothing usable; `problem` names the entry's path and what is wrong. */
  | { kind: 'unusable'; problem: string };

/** The longest key the config takes. */
export const MAX_KEY_LENGTH = 4096;

/** A whole value `${NAME}`: a reference to the environment variable NAME. */
const ENV_PLACEHOLDER = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** Other ways of naming a variable (`$NAME`, `${NAME:-x}`, `key-${NAME}`, `{env:NAME}`): never a key. */
const OTHER_REFERENCE = /^\$[A-Za-z_][A-Za-z0-9_]*$|\$\{|\{env:/;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** One value read: a key, a variable name, nothing (blank), or a problem at `at`. */
type Item = { key: string } | { env: string } | { problem: string } | null;

function readItem(value: unknown, at: string, inList: boolean): Item {
  if (typeof value !== 'string') {
    const expected = inList ? 'a key must be a string' : 'a key must be a string or a list of strings';
    return { problem: `${at}: ${expected}, not ${typeName(value)}` };
  }
  const text = value.trim();
  if (text === '') return null;
  const env = ENV_PLACEHOLDER.exec(text)?.[1];
  if (env !== undefined) return { env };
  if (OTHER_REFERENCE.test(text))
    return {
      problem: `${at}: names an environment variable in a form fcm-router does not read; write "\${NAME}" for the key to come from the variable NAME`,
    };
  if (text.length > MAX_KEY_LENGTH) return { problem: `${at}: longer than ${MAX_KEY_LENGTH} characters` };
  if (!isApiKeyText(text)) return { problem: `${at}: ${API_KEY_MESSAGE}` };
  return { key: text };
}

/**
 * Reads `apiKeys.<id>`: one key or `${NAME}`, or a list of them. Null when it holds no key (null, blanks,
 * an empty list), which free-coding-models itself treats as none.
 */
export function readFcmKeys(id: string, value: unknown): FcmKeys | null {
  const at = `apiKeys.${id}`;
  if (value === null) return null;
  const items = Array.isArray(value)
    ? value.map((item, index) => readItem(item, `${at}.${index}`, true))
    : [readItem(value, at, false)];
  const keys = new Set<string>();
  const names = new Set<string>();
  for (const item of items) {
    if (item === null) continue;
    if ('problem' in item) return { kind: 'unusable', problem: item.problem };
    if ('key' in item) keys.add(item.key);
    else names.add(item.env);
  }
  // Keys in the config are used before any variable: the variables would never be read.
  if (keys.size > 0 && names.size > 0)
    return {
      kind: 'unusable',
      problem: `${at}: mixes keys and "\${NAME}" variables; fcm-router uses a provider's keys before its variables, so list one kind`,
    };
  if (keys.size > 0) return { kind: 'keys', keys: [...keys] };
  if (names.size > 0) return { kind: 'env', names: [...names] };
  return null;
}
