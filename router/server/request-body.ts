import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { hasBody } from './body-gate.js';
import { sendError } from './respond.js';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** How long a refused request may go on sending before its connection is cut. */
export const LINGER_MS = 5000;
/** How much of a refused request is read and dropped before its connection is cut. */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

const lingering = new WeakSet<Socket>();

/**
 * Lets the client of a refused request read the answer (lingering close, RFC 9112 §9.6). Node ends a
 * `connection: close` answer with `socket.destroySoon()`: FIN, then destroy once the answer is written.
 * A client still sending its body then meets a closed socket, the kernel answers with RST, and the RST can
 * make the client drop the answer unread (EPIPE instead of the 413). Here the connection's end only closes
 * our side: the rest of the body is read and dropped until the client closes, for at most `lingerMs` and
 * {@link LINGER_MAX_BYTES}.
 */
export function lingerAfterRefusal(req: IncomingMessage, lingerMs = LINGER_MS): void {
  const socket = req.socket;
  if (lingering.has(socket)) return;
  lingering.add(socket);
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_MAX_BYTES) socket.destroy();
  });
  req.resume();
  socket.destroySoon = function lingeringClose(this: Socket): void {
    this.end();
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}

/**
 * Deals with the unread body of a request answered before reading it (403, 404, 405, 415): a body already
 * in, or none, is dropped; one still arriving is drained for a while (see {@link lingerAfterRefusal}), and
 * the answer must then close the connection: the headers returned say so.
 */
export function dropUnreadBody(req: IncomingMessage): Record<string, string> {
  if (req.complete || !hasBody(req)) {
    req.resume();
    return {};
  }
  lingerAfterRefusal(req);
  return { connection: 'close' };
}

/** Answers 413 with `connection: close`, letting the client finish sending first (see {@link lingerAfterRefusal}). */
export function refuseTooLarge(
  req: IncomingMessage,
  res: ServerResponse,
  message: string,
  headers: Record<string, string> = {},
): void {
  lingerAfterRefusal(req);
  sendError(res, 413, 'request_too_large', message, { headers: { ...headers, connection: 'close' } });
}

/**
 * Reads a request body up to `limit` bytes. Past the limit it stops keeping bytes, says so, and sets the
 * connection up for a lingering close, so the 413 the caller sends reaches a client still sending.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    lingerAfterRefusal(req);
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult): void => {
      if (done) return;
      done = true;
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        lingerAfterRefusal(req);
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () =>
      finish({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) }),
    );
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
    req.on('aborted', () => finish({ ok: false, reason: 'aborted' }));
  });
}
