/**
 * Text from outside (a requested model name, a path) made safe for a log line: control characters (CR and
 * LF would forge lines, ESC would drive the terminal), C1 controls, line separators and bidi overrides are
 * written as `\xNN` / `\uNNNN` escapes. Pure.
 */

/** A character a log line must not carry as it is. */
function isUnsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function escaped(code: number): string {
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with what a log line must not carry escaped; the usual clean text is returned as it is.
 * @example logText('a\r\nb\u001b[31m') // 'a\\x0d\\x0ab\\x1b[31m'
 */
export function logText(text: string): string {
  let clean = 0;
  while (clean < text.length && !isUnsafe(text.charCodeAt(clean))) clean += 1;
  if (clean === text.length) return text;
  let out = text.slice(0, clean);
  for (let i = clean; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    out += isUnsafe(code) ? escaped(code) : text[i];
  }
  return out;
}
