/**
 * The brain of the SSE hold buffer. Before commit every frame is examined and the client gets nothing, so a
 * stream that is empty, errors or turns out to be an HTML page can still fail over unseen. After commit the
 * bytes are piped through as they came, cut only at line ends, with a cheap byte search for an upstream error
 * frame, which the router replaces with its own error frame.
 *
 * Lines are split on bytes (CR, LF, CRLF): a line terminator never occurs inside a UTF-8 sequence, so each
 * complete line decodes on its own, a character split across chunks is whole by then, and byte offsets stay
 * exact for cutting the stream before an error frame.
 */
import { Buffer } from 'node:buffer';
import { choiceHasUsefulContent } from './content-rule.js';
import { htmlStart } from './html-start.js';
import { describeUpstreamError, readUsage, type TokenUsage } from './response-gate.js';
import { isRecord, parseJson } from './safe-json.js';
import {
  CR,
  ERROR_KEY,
  USAGE_KEY,
  LF,
  asBuffer,
  concatOrNull,
  dataValue,
  decodeLine,
  findErrorFrame,
  hasKey,
  isNonNull,
  isObject,
  lastKey,
  lastLineEnd,
  lineAround,
} from './sse-bytes.js';

export type HoldSignal =
  /** Nothing decisive yet: keep holding. */
  | { type: 'pending' }
  /** First useful content seen: commit now. */
  | { type: 'content' }
  /** More than `holdLimitBytes` held with no verdict: commit anyway (pass-through). */
  | { type: 'overflow' }
  | {
      type: 'failure';
      kind: 'error_payload' | 'html_maintenance';
      errorCode: number | string | null;
      detail: string;
    };

export type MidStreamFailure = {
  kind: 'mid_stream_error';
  errorCode: number | string | null;
  detail: string;
};

export interface PassResult {
  /** Bytes safe to write to the client now (null when there are none). */
  forward: Uint8Array | null;
  failure: MidStreamFailure | null;
}

export interface EndResult {
  forward: Uint8Array | null;
  /** Pre-commit: nothing useful arrived. */
  failure: { kind: 'empty_stream' } | null;
  /** Post-commit: the unterminated last line was an upstream error frame (it is not forwarded). */
  midStreamFailure: MidStreamFailure | null;
}

type Phase = 'holding' | 'decided' | 'failed' | 'passing' | 'stopped';

// Blanks and the bytes of a UTF-8 BOM, skipped before sniffing for HTML.
const LEADING_BLANKS = new Set([0x20, 0x09, 0x0a, 0x0d, 0x0c, 0xef, 0xbb, 0xbf]);
const NOTHING: PassResult = { forward: null, failure: null };

const nonEmpty = (bytes: Uint8Array): Uint8Array | null => (bytes.length > 0 ? bytes : null);

/**
 * A partial line outlives the call that brought it, and a chunk's memory is its caller's: it is kept as a
 * copy (rare: chunks mostly end at a line end).
 */
const copy = (bytes: Uint8Array): Uint8Array => Uint8Array.prototype.slice.call(bytes);

/** Index of the chunk's last CR or LF, or -1. */
function lastLineTerminator(chunk: Uint8Array): number {
  const lastByte = chunk[chunk.length - 1];
  // Most chunks end a frame: no search at all (each native search costs more than the bytes it reads).
  if (lastByte === LF || lastByte === CR) return chunk.length - 1;
  // LF ends almost every line; a lone CR after the last LF is rare, so the full CR search runs only then.
  const lastLf = chunk.lastIndexOf(LF);
  return chunk.indexOf(CR, lastLf + 1) === -1 ? lastLf : chunk.lastIndexOf(CR);
}

/** Examines an upstream SSE stream: holds it until a verdict, then passes it through. Never throws. */
export class StreamTracker {
  private readonly holdLimit: number;
  private phase: Phase = 'holding';
  private failureSignal: HoldSignal | null = null;
  private latestUsage: TokenUsage | null = null;
  private usageLine: string | null = null;
  private unparsable = 0;
  private dataLines = 0;

  // Pre-commit: every held chunk, the pieces of the current partial line and the pending event's data lines.
  private held: Uint8Array[] = [];
  private heldLength = 0;
  private linePieces: Uint8Array[] = [];
  private afterCR = false;
  private lineStartAt = 0;
  private examinedEnd = 0;
  private eventData: string[] = [];
  private sniff: string | null = '';

  // Post-commit: the partial last line, kept until its terminator arrives.
  private tail: Uint8Array[] = [];
  private tailLength = 0;

  constructor(options: { holdLimitBytes: number }) {
    this.holdLimit = Math.max(1, options.holdLimitBytes);
  }

  /** Pre-commit: feed one upstream chunk (its bytes are retained until commit). */
  hold(chunk: Uint8Array): HoldSignal {
    if (this.phase === 'failed' && this.failureSignal) return this.failureSignal;
    if (this.phase === 'passing' || this.phase === 'stopped') {
      // Called after commit: keep the bytes for the next pass() or end().
      this.pushTail(chunk);
      return { type: 'content' };
    }
    const base = this.heldLength;
    this.held.push(chunk);
    this.heldLength += chunk.length;
    if (this.phase === 'decided') return { type: 'content' };
    const signal = this.sniffHtml(chunk) ?? this.scan(chunk, base);
    if (signal) return this.decide(signal);
    return this.heldLength > this.holdLimit ? { type: 'overflow' } : { type: 'pending' };
  }

  /**
   * Switches to pass mode. Returns the held bytes up to the end of the last complete line; the held lines
   * after the first useful frame get the post-commit error check, and `forward` stops before an error frame.
   */
  commit(): PassResult {
    if (this.phase !== 'holding' && this.phase !== 'decided') return NOTHING;
    const held = this.held;
    const all = held.length === 1 ? asBuffer(held[0] as Uint8Array) : Buffer.concat(held);
    this.held = [];
    this.linePieces = [];
    this.eventData = [];
    this.phase = 'passing';
    const complete = lastLineEnd(all, 0, all.length);
    const result = this.passRegion(all, Math.min(this.examinedEnd, complete), complete);
    if (this.phase === 'passing' && complete < all.length) this.pushTail(copy(all.subarray(complete)));
    return result;
  }

  /**
   * Post-commit: feed one chunk. Forwards complete lines only (a partial line waits for its terminator,
   * unless it grows past the hold limit). At an upstream error frame, forwards the bytes before its line,
   * reports the failure once and forwards nothing more.
   */
  pass(chunk: Uint8Array): PassResult {
    if (this.phase === 'holding' || this.phase === 'decided') {
      const committed = this.commit();
      if (committed.failure) return committed;
      const passed = this.pass(chunk);
      return { forward: concatOrNull(committed.forward, passed.forward), failure: passed.failure };
    }
    if (this.phase !== 'passing') return NOTHING;
    const lastTerminator = lastLineTerminator(chunk);
    if (lastTerminator < 0) {
      this.pushTail(chunk);
      if (this.tailLength <= this.holdLimit) return NOTHING;
      // A line this long is no SSE frame we can judge; forward it as it is.
      return { forward: this.takeTail(), failure: null };
    }
    // Usually the chunk ends a line and nothing waits before it: then the region is the chunk itself.
    const complete = lastTerminator + 1 === chunk.length ? chunk : chunk.subarray(0, lastTerminator + 1);
    const region = this.tailLength > 0 ? Buffer.concat([...this.tail, complete]) : complete;
    this.tail = [];
    this.tailLength = 0;
    if (lastTerminator + 1 < chunk.length) this.pushTail(copy(chunk.subarray(lastTerminator + 1)));
    return this.passRegion(region, 0, region.length);
  }

  /**
   * Upstream ended. Pre-commit with nothing useful: failure `empty_stream` (also for `[DONE]`-only or empty
   * streams). Pre-commit with useful content in the unterminated last line: everything is forwarded, as if
   * committed. Post-commit: the remaining tail, unless it is an error frame.
   */
  end(): EndResult {
    if (this.phase === 'holding') {
      const signal = this.finishHolding();
      if (signal?.type !== 'content') {
        this.phase = 'stopped';
        this.held = [];
        return { forward: null, failure: { kind: 'empty_stream' }, midStreamFailure: null };
      }
      this.phase = 'decided';
    }
    if (this.phase === 'decided') {
      const committed = this.commit();
      if (committed.failure)
        return { forward: committed.forward, failure: null, midStreamFailure: committed.failure };
      const rest = this.end();
      return { ...rest, forward: concatOrNull(committed.forward, rest.forward) };
    }
    if (this.phase !== 'passing') return { forward: null, failure: null, midStreamFailure: null };
    const tail = this.takeTail() ?? new Uint8Array(0);
    const result = this.passRegion(tail, 0, tail.length);
    this.phase = 'stopped';
    return { forward: result.forward, failure: null, midStreamFailure: result.failure };
  }

  /** Latest `usage` seen in a frame (prompt/completion tokens), or null. */
  usage(): TokenUsage | null {
    const line = this.usageLine;
    this.usageLine = null;
    const value = line === null ? null : dataValue(line);
    const parsed = value === null ? null : parseJson(value);
    if (parsed?.ok && isRecord(parsed.value)) this.latestUsage = readUsage(parsed.value) ?? this.latestUsage;
    return this.latestUsage;
  }

  /** Bytes currently held: the whole stream so far before commit, the partial last line after. */
  heldBytes(): number {
    return this.phase === 'holding' || this.phase === 'decided' ? this.heldLength : this.tailLength;
  }

  /**
   * Data lines seen before commit. Comments (`: keepalive`) are not among them: while nothing is decided,
   * only data shows that the upstream is producing.
   */
  dataLinesSeen(): number {
    return this.dataLines;
  }

  /** Data frames whose JSON could not be parsed (examined before commit only). */
  unparsableFrames(): number {
    return this.unparsable;
  }

  private decide(signal: HoldSignal): HoldSignal {
    if (signal.type === 'failure') {
      this.phase = 'failed';
      this.failureSignal = signal;
      this.held = [];
    } else if (signal.type === 'content') {
      this.phase = 'decided';
    }
    return signal;
  }

  /** Checks the stream's first non-blank bytes for an HTML page; the prefix may arrive over several chunks. */
  private sniffHtml(chunk: Uint8Array): HoldSignal | null {
    if (this.sniff === null) return null;
    let from = 0;
    while (this.sniff === '' && from < chunk.length && LEADING_BLANKS.has(chunk[from] ?? 0)) from += 1;
    if (from === chunk.length) return null;
    // Every HTML prefix starts with `<`: any other first byte (`d` of `data:`, mostly) settles it at once.
    if (this.sniff === '' && chunk[from] !== 0x3c) {
      this.sniff = null;
      return null;
    }
    // Latin-1 maps bytes 1:1: enough to compare ASCII prefixes.
    const start = (this.sniff + asBuffer(chunk).toString('latin1', from, from + 16)).slice(0, 16);
    const verdict = htmlStart(start.toLowerCase());
    if (verdict === 'html') {
      this.sniff = null;
      return {
        type: 'failure',
        kind: 'html_maintenance',
        errorCode: null,
        detail: 'upstream streamed an HTML page',
      };
    }
    this.sniff = verdict === 'maybe' ? start : null;
    return null;
  }

  /** Splits a held chunk into lines and examines them until a verdict. `base` is the chunk's stream offset. */
  private scan(chunk: Uint8Array, base: number): HoldSignal | null {
    let lineStart = 0;
    if (this.afterCR) {
      this.afterCR = false;
      // The LF of a CRLF split across chunks belongs to the line already ended.
      if (chunk[0] === LF) {
        lineStart = 1;
        this.lineStartAt = base + 1;
      }
    }
    for (let i = lineStart; i < chunk.length; i += 1) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      // A line inside one chunk is a view of it; only a line begun in an earlier chunk is joined.
      let line = chunk.subarray(lineStart, i);
      if (this.linePieces.length > 0) {
        line = Buffer.concat([...this.linePieces, line]);
        this.linePieces = [];
      }
      if (byte === CR && i + 1 < chunk.length && chunk[i + 1] === LF) i += 1;
      else if (byte === CR && i + 1 === chunk.length) this.afterCR = true;
      const startedAt = this.lineStartAt;
      lineStart = i + 1;
      this.lineStartAt = this.examinedEnd = base + lineStart;
      const signal = this.examineLine(line, startedAt);
      if (signal) return signal;
    }
    if (lineStart < chunk.length) this.linePieces.push(chunk.subarray(lineStart));
    return null;
  }

  /** At the end of the stream: examines the unterminated last line and the pending event. */
  private finishHolding(): HoldSignal | null {
    const line = Buffer.concat(this.linePieces);
    this.linePieces = [];
    if (line.length > 0) {
      this.examinedEnd = this.heldLength;
      const signal = this.examineLine(line, this.lineStartAt);
      if (signal) return signal;
    }
    return this.flushEvent();
  }

  /** Examines one complete line; `startedAt` is its stream offset. */
  private examineLine(bytes: Uint8Array, startedAt: number): HoldSignal | null {
    const text = decodeLine(bytes);
    if (text === '') return this.flushEvent();
    const value = dataValue(text);
    if (value === null) return null;
    this.dataLines += 1;
    const trimmed = value.trim();
    if (trimmed === '[DONE]') return this.flushEvent();
    if (trimmed.startsWith('{')) {
      // Some providers send one JSON per data line with no blank lines between events.
      const alone = parseJson(trimmed);
      if (alone.ok && isRecord(alone.value)) {
        const earlier = this.flushEvent();
        // A verdict from the event before this line: the line itself is still unexamined.
        if (earlier) this.examinedEnd = startedAt;
        return earlier ?? this.examineFrame(alone.value);
      }
    }
    this.eventData.push(value);
    return null;
  }

  /** Ends the pending multi-line event: its data lines joined with `\n` form one JSON frame. */
  private flushEvent(): HoldSignal | null {
    if (this.eventData.length === 0) return null;
    const data = this.eventData.join('\n');
    this.eventData = [];
    if (data.trim() === '') return null;
    const parsed = parseJson(data);
    if (!parsed.ok || !isRecord(parsed.value)) {
      this.unparsable += 1;
      return null;
    }
    return this.examineFrame(parsed.value);
  }

  private examineFrame(frame: Record<string, unknown>): HoldSignal | null {
    this.latestUsage = readUsage(frame) ?? this.latestUsage;
    if (frame.error != null) {
      const { errorCode, detail } = describeUpstreamError(frame.error);
      return { type: 'failure', kind: 'error_payload', errorCode, detail };
    }
    const choices = frame.choices;
    return Array.isArray(choices) && choices.some(choiceHasUsefulContent) ? { type: 'content' } : null;
  }

  /** Post-commit: forwards `bytes[0, end)`, of which `[checkFrom, end)` is checked for error frames and usage. */
  private passRegion(bytes: Uint8Array, checkFrom: number, end: number): PassResult {
    const whole = end === bytes.length ? bytes : bytes.subarray(0, end);
    // At commit the held lines were usually all examined already: nothing left to search.
    if (checkFrom >= end) return { forward: nonEmpty(whole), failure: null };
    const buf = Buffer.isBuffer(bytes) ? bytes : asBuffer(bytes);
    // Ordinary content frames hold neither key: one native byte search each, and nothing else.
    const errorAt = buf.indexOf(ERROR_KEY, checkFrom);
    const error =
      errorAt >= 0 && errorAt < end && hasKey(buf, ERROR_KEY, errorAt, end, isNonNull)
        ? findErrorFrame(buf, checkFrom, end)
        : null;
    const limit = error ? error.lineStart : end;
    const usageSeen = buf.lastIndexOf(USAGE_KEY, limit - 1);
    const usageAt = usageSeen >= checkFrom ? lastKey(buf, USAGE_KEY, checkFrom, limit, isObject) : -1;
    // Parsed only when asked for: some providers repeat usage in every frame.
    if (usageAt >= 0)
      this.usageLine = buf.subarray(...lineAround(buf, usageAt, checkFrom, limit)).toString('utf8');
    if (!error) return { forward: nonEmpty(whole), failure: null };
    this.phase = 'stopped';
    this.tail = [];
    this.tailLength = 0;
    const { errorCode, detail } = describeUpstreamError(error.value);
    return {
      forward: nonEmpty(bytes.subarray(0, limit)),
      failure: { kind: 'mid_stream_error', errorCode, detail },
    };
  }

  private pushTail(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.tail.push(bytes);
    this.tailLength += bytes.length;
  }

  private takeTail(): Uint8Array | null {
    const bytes = this.tail.length === 1 ? this.tail[0] : Buffer.concat(this.tail);
    this.tail = [];
    this.tailLength = 0;
    return bytes && bytes.length > 0 ? bytes : null;
  }
}
