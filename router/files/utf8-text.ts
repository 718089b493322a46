/**
 * A file's bytes read as UTF-8 text, or where they stop being UTF-8. A lenient decoder turns each byte
 * that is no part of a UTF-8 character (a Latin-1 `é`, say) into U+FFFD, and a file written back from that
 * text has lost the byte: a reader that must not change what it did not understand refuses it instead.
 * Pure.
 */

export type Utf8Reading =
  | { ok: true; text: string }
  /** `byte`: the offset of the first byte that is no part of a character; `before`: the text before it. */
  | { ok: false; byte: number; before: string };

// A byte-order mark is kept in the text: whether to skip it is the caller's to say.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Where the first byte that is no part of a character is, given the lenient decoding of `bytes`: its first
 * U+FFFD that the file does not itself hold as one (EF BF BD, a character like any other).
 */
function firstBadByte(bytes: Uint8Array, lossy: string): { byte: number; before: string } {
  let byte = 0;
  let char = 0;
  for (let next = lossy.indexOf('\uFFFD'); next !== -1; next = lossy.indexOf('\uFFFD', char)) {
    // Everything before `next` decoded whole, so its UTF-8 bytes are the file's.
    byte += Buffer.byteLength(lossy.slice(char, next), 'utf8');
    if (bytes[byte] !== 0xef || bytes[byte + 1] !== 0xbf || bytes[byte + 2] !== 0xbd)
      return { byte, before: lossy.slice(0, next) };
    byte += 3;
    char = next + 1;
  }
  return { byte: bytes.length, before: lossy };
}

/** `bytes` as text when they are UTF-8 (a byte-order mark kept), else where they stop being it. */
export function readUtf8(bytes: Uint8Array): Utf8Reading {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    return { ok: false, ...firstBadByte(bytes, lenient.decode(bytes)) };
  }
}
