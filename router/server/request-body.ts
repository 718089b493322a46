/**
 * Reading an agent's or the dashboard's request body: the bodies still arriving (counted, capped and given
 * a deadline), the body read up to its size limit, a refused request's unread body drained before its
 * connection closes, and the nesting check on the raw bytes before parsing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Time } from '../state/clock.js';
import { DeadlineWatch } from '../upstream/deadline-watch.js';
import { sendError } from './respond.js';

/** A request with a body to come (a length above zero, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The limits on bodies still arriving (`router.server`), read on every request. */
export interface BodyLimits {
  maxPendingBodies: number;
  requestBodyTimeoutMs: number;
}

/** The requests whose bodies were cut at their deadline (answered 408 on the socket). */
const lateBodies = new WeakSet<IncomingMessage>();

/** Whether `req`'s body was cut at its deadline: its reading ended there, and its 408 went out. */
export function cutAtDeadline(req: IncomingMessage): boolean {
  return lateBodies.has(req);
}

/**
 * Counts the requests whose bodies are still arriving, and gives each a deadline. A slow sender holds a
 * socket and buffers until its body is in; past the cap, new senders are turned away rather than let pile
 * up, and a body not in by `requestBodyTimeoutMs` (on the router's time, from the request's head) is cut.
 */
export class PendingBodies {
  #count = 0;
  /** Every pending body's deadline on one timer, as the attempts' are. */
  readonly #deadlines: DeadlineWatch;

  /**
   * @param limits read on every request, so a config change applies at once
   * @param onLate what is done with a request whose body is still arriving at its deadline
   */
  constructor(
    private readonly limits: () => BodyLimits,
    time: Time,
    private readonly onLate: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    this.#deadlines = new DeadlineWatch(time);
  }

  get count(): number {
    return this.#count;
  }

  /**
   * Counts `req` until its body has arrived (or the request is gone), and cuts it if it is still arriving
   * at the deadline. False, counting nothing, when the cap is reached; a request without a body is always
   * admitted and never counted.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (!hasBody(req)) return true;
    const { maxPendingBodies, requestBodyTimeoutMs } = this.limits();
    if (this.#count >= maxPendingBodies) return false;
    this.#count += 1;
    const socket = req.socket;
    const dueAt = this.#deadlines.now() + requestBodyTimeoutMs;
    const onDue = (): void => {
      lateBodies.add(req);
      this.onLate(req, res);
    };
    const deadline = this.#deadlines.watch({ dueAt, onDue });
    const arrived = (): void => {
      this.#deadlines.unwatch(deadline);
      req.off('end', arrived);
      req.off('close', arrived);
      socket.off('close', arrived);
      this.#count -= 1;
    };
    req.once('end', arrived);
    req.once('close', arrived);
    // Answered before its body was in, a request is detached from its socket: neither 'end' nor 'close'
    // comes when the client hangs up then, only the socket's own 'close'.
    socket.once('close', arrived);
    return true;
  }
}

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
