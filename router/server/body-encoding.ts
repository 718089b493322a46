/**
 * A request body sent compressed (`content-encoding: gzip`, `deflate`, `br`, and `zstd` where this Node has
 * it), inflated before it is read as JSON. Bounded like a plain body: a small compressed body cannot unpack
 * into gigabytes. Inflating runs on libuv's pool, off the event loop.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** One content coding's inflater, stopped past `maxOutputLength` bytes. */
type Inflate = (input: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>;

const gunzip: Inflate = promisify(zlib.gunzip);
const inflateZlib: Inflate = promisify(zlib.inflate);
const inflateRaw: Inflate = promisify(zlib.inflateRaw);
const brotli: Inflate = promisify(zlib.brotliDecompress);
/** Node 22.15 and later inflate zstd (Codex's coding); Node 20 does not. */
const zstdOfNode = (zlib as { zstdDecompress?: Parameters<typeof promisify>[0] }).zstdDecompress;

/** `deflate` is zlib-wrapped by the standard (RFC 9110 §8.4.1.2); some clients send the raw stream. */
const deflate: Inflate = async (input, options) => {
  try {
    return await inflateZlib(input, options);
  } catch (error) {
    if (codeOf(error) === 'ERR_BUFFER_TOO_LARGE') throw error;
    return inflateRaw(input, options);
  }
};

const INFLATERS: Readonly<Record<string, Inflate>> = {
  gzip: gunzip,
  'x-gzip': gunzip,
  deflate,
  br: brotli,
  ...(zstdOfNode ? { zstd: promisify(zstdOfNode) as Inflate } : {}),
};

/** The body as JSON text bytes, or why it cannot be (status and message for the client). */
export type DecodedBody =
  { ok: true; body: Buffer } | { ok: false; status: 400 | 413 | 415; message: string };

function codeOf(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

/**
 * Undoes the codings `encoding` (the `content-encoding` header) names, last applied first. `limit` bounds
 * the bytes each step may give. A coding this router cannot undo is a 415 that names it; a body over the
 * limit once inflated a 413; a body that is not what its coding says a 400.
 *
 * @example await decodeBody(gzipSync('{}'), 'gzip', 1024) // { ok: true, body: <Buffer 7b 7d> }
 */
export async function decodeBody(raw: Buffer, encoding: string, limit: number): Promise<DecodedBody> {
  const codings = encoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let body = raw;
  for (const coding of codings.reverse()) {
    const inflate = INFLATERS[coding];
    if (inflate === undefined) {
      const known = Object.keys(INFLATERS).join(', ');
      const message = `content-encoding "${coding.slice(0, 40)}" is not one this router inflates (${known}): send the body uncompressed`;
      return { ok: false, status: 415, message };
    }
    try {
      body = await inflate(body, { maxOutputLength: limit });
    } catch (error) {
      if (codeOf(error) === 'ERR_BUFFER_TOO_LARGE')
        return {
          ok: false,
          status: 413,
          message: `request body is over ${limit / 1024 / 1024} MiB once inflated`,
        };
      const why = error instanceof Error ? error.message : 'unreadable';
      return { ok: false, status: 400, message: `request body is not valid ${coding} (${why})` };
    }
  }
  return { ok: true, body };
}
