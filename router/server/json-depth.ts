/**
 * The deepest nesting a request body may have. Agents' bodies nest a few dozen levels (tool schemas);
 * thousands of levels only make `JSON.stringify` throw later, on the way upstream.
 */
export const MAX_JSON_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * True when the JSON text in `bytes` opens objects or arrays more than `max` levels deep, brackets inside
 * strings aside. Read on the raw bytes before parsing: one linear pass, no allocation, while
 * `JSON.parse` of a deeply nested body holds the event loop for seconds (8 MB of `[`: about 5 s). UTF-8
 * multi-byte characters never contain these ASCII bytes, so no decoding is needed. Invalid JSON is judged
 * by the parser that follows.
 */
export function exceedsJsonDepth(bytes: Uint8Array, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}
