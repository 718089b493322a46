import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { LocalFault } from './exchange-errors.js';
import { parseRateLimitHeaders, type RateLimitHints } from './upstream-headers.js';

/** What an attempt needs of a response head. */
export interface UpstreamHead {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  /** What the provider says is left of its rate limits (`x-ratelimit-*`), or null. */
  rateLimit: RateLimitHints | null;
}

/** How the body that follows a head is consumed, as the handler's `onHead` decides. */
export type BodyPlan =
  /** Buffer it whole, up to `limit` bytes (over that the request is cut and `onWhole(null)` runs). */
  | { type: 'whole'; limit: number }
  /** Only its first `limit` bytes, as text (an error answer's classification needs no more). */
  | { type: 'snippet'; limit: number }
  /** Each chunk to `onChunk` as it arrives. */
  | { type: 'stream' };

/**
 * What a stream's consumer answers per chunk: nothing (go on), a promise (the client must drain first: the
 * upstream is paused until it settles) or `false` (stop: the upstream is cut and nothing more is called).
 */
export type ChunkVerdict = Promise<void> | undefined | false;

/**
 * The one consumer of an exchange, called from undici's callbacks as things happen. Exactly one ending runs —
 * `onWhole`, `onSnippet`, `onStreamEnd` or `onError` — unless the consumer stopped a stream itself. A throw
 * from any of these is a `LocalFault`: the upstream is cut and `onError` gets the fault (after an ending
 * that threw, too).
 */
export interface ExchangeHandler {
  onHead(head: UpstreamHead): BodyPlan;
  onChunk(chunk: Buffer): ChunkVerdict;
  onWhole(body: Buffer | null): void;
  onSnippet(text: string): void;
  onStreamEnd(): void;
  /** A network error, the router's abort (`AttemptAbort`) or a `LocalFault`. */
  onError(error: Error): void;
}

/** Where the exchange is: each phase holds only what it needs. */
type Phase =
  | { name: 'awaiting_head' }
  | { name: 'whole'; limit: number; chunks: Buffer[]; size: number }
  | { name: 'snippet'; limit: number; chunks: Buffer[]; size: number }
  | { name: 'stream'; queue: Buffer[]; draining: boolean; ended: boolean }
  | { name: 'over' };

const OVER: Phase = { name: 'over' };

function first(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function joined(chunks: Buffer[], size: number): Buffer {
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
}

/**
 * One upstream request as an undici dispatch handler feeding one `ExchangeHandler`: no Readable, no promise
 * per phase. `abort` cuts the request in any phase, including while it still waits for a socket (the socket,
 * once granted, is then dropped before anything is written).
 */
export class UpstreamExchange implements Dispatcher.DispatchHandler {
  readonly #handler: ExchangeHandler;
  #phase: Phase = { name: 'awaiting_head' };
  /** Undici's handle on the request, from the moment it takes it to a socket. */
  #controller: Dispatcher.DispatchController | null = null;
  /** Set when the router aborted before undici took the request. */
  #abortReason: Error | null = null;
  #sent = false;

  constructor(handler: ExchangeHandler) {
    this.#handler = handler;
  }

  /**
   * Whether the request went out to the provider: undici took it to a connected socket before any abort.
   * False for a request that never left the machine (connection refused, a name that did not resolve, a
   * connect timeout, or stopped while it waited for a socket).
   */
  get sent(): boolean {
    return this.#sent;
  }

  /** Cuts the request in whatever phase it is; the handler's ending (if it has none yet) gets `reason`. */
  abort(reason: Error): void {
    if (this.#phase.name === 'over') return;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
    this.#settleFailed(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#abortReason) controller.abort(this.#abortReason);
    else this.#sent = true;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (statusCode < 200 || this.#phase.name !== 'awaiting_head') return;
    const head: UpstreamHead = {
      status: statusCode,
      contentType: first(headers['content-type']),
      retryAfter: first(headers['retry-after']),
      rateLimit: parseRateLimitHeaders(headers),
    };
    const plan = this.#guarded(() => this.#handler.onHead(head));
    // A throw in `onHead` ended the exchange already.
    if (plan === undefined) return;
    this.#phase =
      plan.type === 'stream'
        ? { name: 'stream', queue: [], draining: false, ended: false }
        : { name: plan.type, limit: plan.limit, chunks: [], size: 0 };
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const phase = this.#phase;
    if (phase.name === 'stream') {
      if (phase.draining || phase.queue.length > 0) phase.queue.push(chunk);
      else this.#deliver(phase, chunk);
      return;
    }
    if (phase.name !== 'whole' && phase.name !== 'snippet') return;
    phase.chunks.push(chunk);
    phase.size += chunk.byteLength;
    if (phase.size <= phase.limit) return;
    if (phase.name === 'snippet') this.#endSnippet(phase);
    else {
      this.#phase = OVER;
      this.#guarded(() => this.#handler.onWhole(null));
    }
    this.#cut();
  }

  onResponseEnd(): void {
    const phase = this.#phase;
    if (phase.name === 'whole') {
      this.#phase = OVER;
      this.#guarded(() => this.#handler.onWhole(joined(phase.chunks, phase.size)));
    } else if (phase.name === 'snippet') this.#endSnippet(phase);
    else if (phase.name === 'stream') {
      phase.ended = true;
      if (!phase.draining && phase.queue.length === 0) this.#endStream();
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#settleFailed(this.#abortReason ?? error);
  }

  /** An error ending: an error answer's snippet still counts (its status classifies it), else `onError`. */
  #settleFailed(error: Error): void {
    const phase = this.#phase;
    if (phase.name === 'over') return;
    if (phase.name === 'snippet') return this.#endSnippet(phase);
    this.#phase = OVER;
    this.#tellError(error);
  }

  #endSnippet(phase: Extract<Phase, { name: 'snippet' }>): void {
    this.#phase = OVER;
    const text = Buffer.concat(phase.chunks).subarray(0, phase.limit).toString('utf8');
    this.#guarded(() => this.#handler.onSnippet(text));
  }

  /** Hands one chunk to the consumer; false when the stream must wait (a drain) or was stopped. */
  #deliver(phase: Extract<Phase, { name: 'stream' }>, chunk: Buffer): boolean {
    const verdict = this.#guarded(() => this.#handler.onChunk(chunk));
    if (this.#phase !== phase) return false;
    if (verdict === undefined) return true;
    if (verdict === false) {
      this.#phase = OVER;
      this.#cut();
      return false;
    }
    phase.draining = true;
    this.#controller?.pause();
    const next = (): void => {
      phase.draining = false;
      if (this.#phase !== phase) return;
      this.#pump(phase);
      if (this.#phase === phase && !phase.draining && !phase.ended) this.#controller?.resume();
    };
    verdict.then(next, next);
    return false;
  }

  /** Feeds chunks that came during a drain to the consumer, in order, then the end if it came. */
  #pump(phase: Extract<Phase, { name: 'stream' }>): void {
    while (phase.queue.length > 0) {
      if (!this.#deliver(phase, phase.queue.shift() as Buffer)) return;
    }
    if (phase.ended) this.#endStream();
  }

  #endStream(): void {
    this.#phase = OVER;
    this.#guarded(() => this.#handler.onStreamEnd());
  }

  /**
   * Runs a handler callback; a throw there is the router's own fault: the upstream is cut and the handler
   * gets the fault through `onError` (even after an ending of its own that threw: settling twice is its
   * concern, and it ignores the second).
   */
  #guarded<T>(call: () => T): T | undefined {
    try {
      return call();
    } catch (error) {
      this.#phase = OVER;
      this.#cut();
      this.#tellError(new LocalFault(error));
      return undefined;
    }
  }

  /**
   * `onError`, guarded as every handler call is: it runs on undici's callbacks and on the deadline timer's
   * abort, where a throw would end the process. A throw there is told as a `LocalFault`; a handler that
   * throws on its fault too has nothing left to be told.
   */
  #tellError(error: Error): void {
    try {
      this.#handler.onError(error);
    } catch (fault) {
      if (error instanceof LocalFault) return;
      try {
        this.#handler.onError(new LocalFault(fault));
      } catch {
        // A handler that cannot take even its own fault is beyond the exchange's help.
      }
    }
  }

  /** Drops a request whose body is no longer wanted (its socket goes with it). */
  #cut(): void {
    const reason = new Error('body not wanted');
    this.#abortReason ??= reason;
    this.#controller?.abort(reason);
  }
}
