import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** What the attempt needs of a response head. */
export interface UpstreamHead {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
}

/**
 * What a streamed body's consumer answers per chunk: nothing (go on), a promise (the client must drain
 * first: the upstream is paused until it settles) or `false` (stop: the upstream is cut).
 */
export type ChunkVerdict = Promise<void> | undefined | false;

type Mode = 'head' | 'buffer' | 'snippet' | 'stream';

/** Bytes buffered while nobody consumes the body yet (between headers and the consumer's call). */
const EARLY_BUFFER = 64 * 1024;

function first(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * One upstream request as undici dispatch callbacks: no Readable, no AbortSignal. The head and then one
 * body phase (whole body, error snippet, or stream) are each a promise; `abort` cuts the request in any
 * phase, including while it is still queued for a socket (the abort then settles at once and the socket,
 * once granted, is dropped before anything is written).
 */
export class UpstreamExchange implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | null = null;
  #abortReason: Error | null = null;
  #error: Error | null = null;
  #ended = false;
  #mode: Mode = 'head';
  #chunks: Buffer[] = [];
  #size = 0;
  #limit = 0;
  #head: UpstreamHead | null = null;
  #onChunk: ((chunk: Buffer) => ChunkVerdict) | null = null;
  #onEnd: (() => void) | null = null;
  /** A stream chunk waits for the client to drain. */
  #draining = false;
  #resolve: ((value: never) => void) | null = null;
  #reject: ((error: Error) => void) | null = null;
  /** Whether undici has taken the request to its socket (or the request is over before it could). */
  #started = false;
  #onStarted: (() => void) | null = null;
  #onWholeEarly: ((head: UpstreamHead, body: Buffer) => void) | null = null;
  #streamIf: ((head: UpstreamHead) => boolean) | null = null;
  /** The stream phase started at the head (see `streamEarly`), until `stream` hands it over. */
  #earlyStream: Promise<void> | null = null;

  /** Resolves with the response head; rejects on a network error or an abort. */
  head(): Promise<UpstreamHead> {
    return this.#wait('head', () => this.#head !== null && this.#resolveWith(this.#head));
  }

  /** The whole body, or null when it is larger than `limit` (the request is then cut). */
  readAll(limit: number): Promise<Buffer | null> {
    this.#limit = limit;
    return this.#wait('buffer', () => this.#checkBuffer());
  }

  /** At most `limit` bytes of the body as text (for classifying an error answer); never rejects. */
  readSnippet(limit: number): Promise<string> {
    this.#limit = limit;
    return this.#wait<string>('snippet', () => this.#checkSnippet()).catch(() => this.#snippetText());
  }

  /**
   * Hands each body chunk to `onChunk` (chunks that came early first) until the body ends (resolves), the
   * consumer stops it (resolves; the request is cut) or it fails (rejects). `onEnd` runs once the whole
   * body has been handed over, synchronously, before the promise resolves: the consumer can finish its own
   * answer without waiting for a promise turn and for undici's work after the response.
   */
  stream(onChunk: (chunk: Buffer) => ChunkVerdict, onEnd?: () => void): Promise<void> {
    const early = this.#earlyStream;
    if (early !== null) {
      this.#earlyStream = null;
      return early;
    }
    this.#onChunk = onChunk;
    this.#onEnd = onEnd ?? null;
    return this.#wait('stream', () => this.#pump());
  }

  /**
   * Runs `task` once the request is on its socket, in the microtask after undici's write (undici writes a
   * reused keep-alive socket's request only after a `setImmediate`, so anything done before that delays the
   * upstream). Work that only the answer needs belongs here, while the upstream computes: it then sits on
   * nobody's path. Also runs when the request fails or is aborted before it was written.
   */
  whenSent(task: () => void): void {
    if (this.#started) queueMicrotask(task);
    else this.#onStarted = task;
  }

  /**
   * Runs `task` with the head and the whole body synchronously inside undici's end callback, if the body
   * ends before anyone asked for it (a small answer that came at once, the usual JSON completion): its
   * consumer can answer the client there, ahead of undici's work after the response and of a promise turn.
   * The body stays readable with `readAll` as if nothing had happened.
   */
  whenWholeEarly(task: (head: UpstreamHead, body: Buffer) => void): void {
    this.#onWholeEarly = task;
  }

  /**
   * Starts the stream phase inside undici's head callback when `accept(head)` holds, so the first chunks
   * reach `onChunk` as they arrive rather than a promise turn later. `stream` then returns that phase.
   */
  streamEarly(
    accept: (head: UpstreamHead) => boolean,
    onChunk: (chunk: Buffer) => ChunkVerdict,
    onEnd: () => void,
  ): void {
    this.#streamIf = accept;
    this.#onChunk = onChunk;
    this.#onEnd = onEnd;
  }

  /** Cuts the request in whatever phase it is; a pending phase rejects with `reason`. */
  abort(reason: Error): void {
    if (this.#abortReason || this.#ended || this.#error) return;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
    this.#fail(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#abortReason) controller.abort(this.#abortReason);
    this.#markStarted();
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (statusCode < 200) return;
    this.#head = {
      status: statusCode,
      contentType: first(headers['content-type']),
      retryAfter: first(headers['retry-after']),
    };
    if (this.#mode === 'head') this.#resolveWith(this.#head);
    const accept = this.#streamIf;
    this.#streamIf = null;
    if (accept !== null && this.#mode === 'head' && accept(this.#head)) {
      this.#earlyStream = this.#wait('stream', () => this.#pump());
      // Its reader takes it over a promise turn later; a failure before then is not unhandled.
      this.#earlyStream.catch(() => undefined);
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#mode === 'stream') {
      if (this.#draining || this.#chunks.length > 0) this.#chunks.push(chunk);
      else if (this.#resolve !== null) this.#deliver(chunk);
      return;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.byteLength;
    if (this.#mode === 'buffer') this.#checkBuffer();
    else if (this.#mode === 'snippet') this.#checkSnippet();
    else if (this.#size > EARLY_BUFFER) controller.pause();
  }

  onResponseEnd(): void {
    this.#ended = true;
    const early = this.#onWholeEarly;
    this.#onWholeEarly = null;
    if (early !== null && this.#mode === 'head' && this.#head !== null) early(this.#head, this.#joined());
    if (this.#mode === 'buffer') this.#checkBuffer();
    else if (this.#mode === 'snippet') this.#checkSnippet();
    else if (this.#mode === 'stream' && !this.#draining && this.#chunks.length === 0) this.#finishStream();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#ended || this.#error) return;
    this.#error = this.#abortReason ?? error;
    this.#fail(this.#error);
  }

  /** Starts a phase: resolves at once if its data is already here, else when the callbacks complete it. */
  #wait<T>(mode: Mode, check: () => unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#mode = mode;
      this.#resolve = resolve as (value: never) => void;
      this.#reject = reject;
      if (this.#error) return reject(this.#error);
      check();
      // Chunks that came before the consumer may have paused the socket; it flows again now.
      if (mode !== 'head' && this.#resolve !== null && !this.#draining) this.#controller?.resume();
    });
  }

  #resolveWith(value: unknown): true {
    const resolve = this.#resolve;
    this.#resolve = null;
    this.#reject = null;
    resolve?.(value as never);
    return true;
  }

  #markStarted(): void {
    if (this.#started) return;
    this.#started = true;
    const task = this.#onStarted;
    this.#onStarted = null;
    if (task) queueMicrotask(task);
  }

  #fail(error: Error): void {
    this.#markStarted();
    this.#error ??= error;
    const reject = this.#reject;
    this.#resolve = null;
    this.#reject = null;
    reject?.(error);
  }

  #checkBuffer(): void {
    if (this.#size > this.#limit) {
      this.#resolveWith(null);
      this.#cut();
    } else if (this.#ended) this.#resolveWith(this.#joined());
  }

  /** The body so far as one buffer (kept as the only chunk, so it is joined once). */
  #joined(): Buffer {
    const chunks = this.#chunks;
    if (chunks.length === 1) return chunks[0] as Buffer;
    const whole = Buffer.concat(chunks, this.#size);
    this.#chunks = [whole];
    return whole;
  }

  #checkSnippet(): void {
    if (this.#size >= this.#limit) {
      this.#resolveWith(this.#snippetText());
      this.#cut();
    } else if (this.#ended) this.#resolveWith(this.#snippetText());
  }

  #snippetText(): string {
    return Buffer.concat(this.#chunks).subarray(0, this.#limit).toString('utf8');
  }

  /** Feeds chunks that came early or during a drain to the stream consumer, in order. */
  #pump(): void {
    while (this.#chunks.length > 0) {
      if (this.#resolve === null || !this.#deliver(this.#chunks.shift() as Buffer)) return;
    }
    if (this.#ended) this.#finishStream();
  }

  /**
   * Hands one chunk to the stream consumer; false when the stream must wait (the client drains: the socket
   * is paused, and a chunk already in flight waits in the queue) or was stopped.
   */
  #deliver(chunk: Buffer): boolean {
    const verdict = (this.#onChunk as (chunk: Buffer) => ChunkVerdict)(chunk);
    if (verdict === undefined) return true;
    if (verdict === false) {
      this.#resolveWith(undefined);
      this.#cut();
      return false;
    }
    this.#draining = true;
    this.#controller?.pause();
    const next = (): void => {
      this.#draining = false;
      this.#pump();
      if (this.#resolve !== null && !this.#draining && !this.#ended) this.#controller?.resume();
    };
    verdict.then(next, next);
    return false;
  }

  #finishStream(): void {
    if (this.#resolve === null) return;
    try {
      this.#onEnd?.();
    } finally {
      this.#resolveWith(undefined);
    }
  }

  /** Drops a request whose body is no longer wanted (its socket goes with it). */
  #cut(): void {
    if (this.#ended || this.#error) return;
    this.#abortReason = new Error('body not wanted');
    this.#error = this.#abortReason;
    this.#controller?.abort(this.#abortReason);
  }
}
