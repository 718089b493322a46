/**
 * Text from outside (a requested model name, a path) made safe for a log line: control characters (CR and
 * LF would forge lines, ESC would drive the terminal), C1 controls, line separators and bidi overrides are
 * written as `\xNN` / `\uNNNN` escapes. Pure.
 */
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with what a log line must not carry escaped; the usual clean text is returned as it is.
 * @example logText('a\r\nb\u001b[31m') // 'a\\x0d\\x0ab\\x1b[31m'
 */
export function logText(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escaped) : text;
}
