import { Buffer } from 'node:buffer';
import type { RefusalView } from '../../api-types.js';
import type { FailureKind, RequestOutcome } from '../../gate/failure-kinds.js';
import type { GatedCompletion } from '../../gate/response-gate.js';
import type { FrameBatch, StreamPart, StreamReading } from '../../gate/stream-part.js';
import { encodePart, type AnswerEncoder, type ErrorAnswer, type Face } from '../../faces/answer-encoder.js';
import { SentLines, type AnswerSoFar } from '../stream/answer-so-far.js';
import { decisionHeaders, RequestTrace } from './request-trace.js';

/** The client's side of the wire: the parts of node's `ServerResponse` an answer uses. */
export interface AnswerTarget {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: Uint8Array | string): boolean;
  end(chunk?: Uint8Array | string): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/**
 * What an attempt writes its answer through: the request's `Answer` itself, or in a hedged race its own
 * handle on it (`AnswerHandle`). `started` tells the attempt the answer was committed to it; `reads` how the
 * gate is to hand on a stream (as the encoder reads it).
 */
export interface AnswerSink {
  readonly started: boolean;
  readonly reads: StreamReading;
  serveJson(upstreamStatus: number, completion: GatedCompletion): void;
  commitStream(): void;
  /** `read`: of a part as bytes, the frames already read from its first `read.bytes` bytes. */
  streamPart(part: StreamPart, read?: FrameBatch | null): Promise<void> | undefined;
  endStream(): void;
  /** The client has the stream's ending from upstream: a finish reason or `[DONE]` went out. */
  hasEnding(): boolean;
}

type State = 'open' | 'streaming' | 'over';

const JSON_TYPE = 'application/json; charset=utf-8';
const SSE_TYPE = 'text/event-stream; charset=utf-8';

const byteLength = (body: Buffer | string): number =>
  typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;

/**
 * One request's answer: the only thing that writes to its client. It carries the request's trace (the
 * decision headers come from there, built once per answer), writes the status line in one place, and puts
 * every body through the face's encoder. Attempts hand it what passed the gate; they never touch headers.
 */
export class Answer implements AnswerSink {
  readonly trace: RequestTrace;
  readonly #target: AnswerTarget;
  readonly #encoder: AnswerEncoder;
  /** The lines the client was sent, for a continuation to go on from: kept once a stream starts. */
  #sent: SentLines | null = null;
  #state: State = 'open';

  constructor(target: AnswerTarget, encoder: AnswerEncoder, requestId: string) {
    this.#target = target;
    this.#encoder = encoder;
    this.trace = new RequestTrace(requestId);
  }

  /** The protocol this answer speaks. */
  get face(): Face {
    return this.#encoder.face;
  }

  /** How its encoder reads a stream: the gate hands a stream on in this form. */
  get reads(): StreamReading {
    return this.#encoder.reads;
  }

  /** Some of the answer went out (or it is over): too late to answer otherwise. */
  get started(): boolean {
    return this.#state !== 'open';
  }

  /** What the client has of the streamed answer so far. */
  soFar(): AnswerSoFar {
    return (this.#sent ??= new SentLines()).read();
  }

  /**
   * Serves a gated chat completion whole, as 200, committed to the running attempt (the one on `model`
   * when two run).
   */
  serveJson(upstreamStatus: number, completion: GatedCompletion, model?: string): void {
    if (this.#state !== 'open') return;
    // Encoded before anything is decided: an encoder that throws leaves the answer open for a 500.
    const body = this.#encoder.json(completion);
    this.trace.commit(upstreamStatus, model);
    this.#state = 'over';
    this.#head(200, 'served', JSON_TYPE, byteLength(body));
    this.#end(body);
  }

  /**
   * Commits the answer to the running attempt's stream (the one on `model` when two run): the head goes
   * out now, the lines follow.
   */
  commitStream(model?: string): void {
    if (this.#state !== 'open') return;
    this.trace.commit(200, model);
    this.#state = 'streaming';
    this.#sent = new SentLines();
    this.#head(200, 'served', SSE_TYPE, null);
  }

  /**
   * What of the upstream's stream passed the gate (whole lines, or their frames) through the encoder to the
   * client; a promise when the client must drain first (backpressure reaches the upstream through it). The
   * frames already `read` from a part's bytes are kept with it, so what was sent is not parsed again.
   */
  streamPart(part: StreamPart, read: FrameBatch | null = null): Promise<void> | undefined {
    if (this.#state !== 'streaming') return undefined;
    this.#sent?.add(part, read);
    const out = encodePart(this.#encoder, part);
    if (out === null) return undefined;
    const target = this.#target;
    if (target.destroyed || target.writableEnded) return undefined;
    return target.write(out) ? undefined : drained(target);
  }

  hasEnding(): boolean {
    return this.#sent?.hasEnding() ?? false;
  }

  /** The upstream's stream ended cleanly: the face's closing words, unless the stream carried them. */
  endStream(): void {
    if (this.#state !== 'streaming') return;
    this.#state = 'over';
    const sent = this.#sent?.tail() ?? { done: false, lineEnds: 2 };
    this.#end(this.#encoder.streamClose(sent) ?? undefined);
  }

  /**
   * The stream broke after content went out: the face's own error ending, so the client knows, in an event
   * of its own (after the line ends that close one the upstream's lines left open).
   */
  failStream(kind: FailureKind, model: string): void {
    if (this.#state !== 'streaming') return;
    this.endEvent();
    this.#state = 'over';
    this.#end(this.#encoder.streamFailure(kind, model));
  }

  /**
   * The upstream's lines stop short of an event's end (a stream cut mid-line, or before its blank line): the
   * line ends that close it go out now, so the router's own lines (a continuation's, an ending) start an
   * event of their own. A line whose JSON was cut is lost to the client as it was anyway; what follows is not.
   */
  endEvent(): void {
    const missing = this.#state === 'streaming' && this.#sent !== null ? 2 - this.#sent.lineEnds : 0;
    if (missing > 0) void this.streamPart(Buffer.from('\n'.repeat(missing)));
  }

  /** An error answer before any byte went out, in the face's shape, with the decision headers. */
  refuse(error: ErrorAnswer, outcome: RequestOutcome, extra?: Readonly<Record<string, string>>): void {
    if (this.#state !== 'open') return;
    this.#state = 'over';
    this.trace.refusal = refusalView(error);
    const body = this.#encoder.error(error);
    const headers: Record<string, string> = { ...extra };
    if (error.retryAfterSec !== null) headers['retry-after'] = String(error.retryAfterSec);
    this.#head(error.status, outcome, JSON_TYPE, byteLength(body), headers);
    this.#end(body);
  }

  /** Ends whatever is open without another word (the client left, or the encoder itself failed). */
  close(): void {
    if (this.#state === 'over') return;
    this.#state = 'over';
    this.#end(undefined);
  }

  /** The one place the status line is written. */
  #head(
    status: number,
    outcome: RequestOutcome,
    contentType: string,
    length: number | null,
    extra?: Record<string, string>,
  ): void {
    const target = this.#target;
    if (target.headersSent || target.destroyed) return;
    const headers = decisionHeaders(this.trace, outcome);
    if (extra !== undefined) Object.assign(headers, extra);
    headers['content-type'] = contentType;
    if (length !== null) {
      headers['content-length'] = String(length);
      headers['cache-control'] = 'no-store';
    } else {
      headers['cache-control'] = 'no-cache';
      headers['x-accel-buffering'] = 'no';
    }
    target.writeHead(status, headers);
  }

  #end(chunk: Buffer | Uint8Array | string | undefined): void {
    const target = this.#target;
    if (target.destroyed || target.writableEnded) return;
    // Bytes for a client that never got a head would be an invalid response: end it bare.
    if (chunk !== undefined && target.headersSent) target.end(chunk);
    else target.end();
  }
}

/** A field path as the router names one (`messages.2.content`, `tools[0].name`): anything else is left out. */
const FIELD_PATH = /^[\w.[\]-]{1,200}$/;

/** What the history keeps of an error answer: its code, and the field at fault (a path, never a value). */
export function refusalView(error: ErrorAnswer): RefusalView {
  const { code, param } = error;
  return param !== undefined && FIELD_PATH.test(param) ? { code, param } : { code };
}

/** Waits for the socket to drain, or for the client to go away (then writing is pointless). */
function drained(target: AnswerTarget): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      target.off('drain', done);
      target.off('close', done);
      resolve();
    };
    target.once('drain', done);
    target.once('close', done);
  });
}
