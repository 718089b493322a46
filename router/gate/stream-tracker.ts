/**
 * The brain of the SSE hold buffer. Before commit every frame is read (`SseFrameReader`) and examined and the
 * client gets nothing, so a stream that is empty, errors or turns out to be an HTML page can still fail over
 * unseen. After commit the stream is handed on in the form its face's encoder reads: as the upstream's bytes
 * (`BytePass`: chat completions relays them, checked by a byte search) or as the frames the reader parsed
 * (`FramePass`: the translating faces), so every upstream byte is split and parsed once.
 */
import { Buffer } from 'node:buffer';
import { BytePass } from './byte-pass.js';
import { frameHasUsefulContent } from './answer-rules.js';
import { FramePass } from './frame-pass.js';
import { htmlStart } from './html-start.js';
import type { TokenUsage } from './response-gate.js';
import { asBuffer } from './sse-bytes.js';
import { SseFrameReader } from './sse-frames.js';
import { type FrameBatch, type StreamPart, type StreamReading, type UpstreamFrame } from './stream-part.js';
import {
  NOTHING,
  frameFailure,
  joinParts,
  usageAfter,
  type MidStreamFailure,
  type PassResult,
  type StreamPass,
} from './stream-pass.js';

export type { MidStreamFailure, PassResult } from './stream-pass.js';

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

export interface EndResult {
  forward: StreamPart | null;
  /** Pre-commit: nothing useful arrived. */
  failure: { kind: 'empty_stream' } | null;
  /** Post-commit: the unterminated last line was an upstream error frame (it is not forwarded). */
  midStreamFailure: MidStreamFailure | null;
}

type Phase = 'holding' | 'decided' | 'failed' | 'passing' | 'stopped';

// Blanks and the bytes of a UTF-8 BOM, skipped before sniffing for HTML.
const LEADING_BLANKS = new Set([0x20, 0x09, 0x0a, 0x0d, 0x0c, 0xef, 0xbb, 0xbf]);
const HTML_PAGE: HoldSignal = {
  type: 'failure',
  kind: 'html_maintenance',
  errorCode: null,
  detail: 'upstream streamed an HTML page',
};

/**
 * Examines an upstream SSE stream: holds it until a verdict, then passes it on, as bytes or as frames
 * (`reading`, bytes unless told). Never throws.
 */
export class StreamTracker {
  private readonly holdLimit: number;
  private phase: Phase = 'holding';
  private failureSignal: HoldSignal | null = null;
  private latestUsage: TokenUsage | null = null;
  private readonly reader = new SseFrameReader();
  private readonly passOn: StreamPass;
  /** What the frame just read decided, before commit. */
  private verdict: HoldSignal | null = null;
  /** Before commit: the upstream's `[DONE]` was read. */
  private doneHeld = false;

  // Pre-commit: every held chunk, and the first bytes while they might still open an HTML page.
  private held: Uint8Array[] = [];
  private heldLength = 0;
  private sniff: string | null = '';

  constructor(options: { holdLimitBytes: number; reading?: StreamReading }) {
    this.holdLimit = Math.max(1, options.holdLimitBytes);
    const { reader } = this;
    this.passOn = options.reading === 'frames' ? new FramePass(reader) : new BytePass(reader, this.holdLimit);
  }

  /** Pre-commit: feed one upstream chunk (its bytes are retained until commit). */
  hold(chunk: Uint8Array): HoldSignal {
    if (this.phase === 'failed' && this.failureSignal) return this.failureSignal;
    if (this.phase === 'passing' || this.phase === 'stopped') {
      // Called after commit: keep the bytes for the next pass() or end().
      this.passOn.keep(chunk);
      return { type: 'content' };
    }
    this.held.push(chunk);
    this.heldLength += chunk.length;
    if (this.phase === 'decided') return { type: 'content' };
    const signal = this.sniffHtml(chunk) ?? this.readHeld(chunk);
    if (signal) return this.decide(signal);
    return this.heldLength > this.holdLimit ? { type: 'overflow' } : { type: 'pending' };
  }

  /**
   * Switches to pass mode. Returns what was held up to the end of the last complete line; the held lines
   * after the first useful frame get the post-commit error check, and `forward` stops before an error frame.
   */
  commit(): PassResult {
    if (this.phase !== 'holding' && this.phase !== 'decided') return NOTHING;
    const held = this.held;
    const all = held.length === 1 ? asBuffer(held[0] as Uint8Array) : Buffer.concat(held);
    this.held = [];
    this.phase = 'passing';
    return this.passed(this.passOn.commit(all));
  }

  /**
   * Post-commit: feed one chunk. Forwards complete lines only (a partial line waits for its terminator;
   * as bytes it is forwarded as it is once it grows past the hold limit). At an upstream error frame,
   * forwards what came before it, reports the failure once and forwards nothing more.
   */
  pass(chunk: Uint8Array): PassResult {
    if (this.phase === 'holding' || this.phase === 'decided') {
      const committed = this.commit();
      if (committed.failure) return committed;
      const passed = this.pass(chunk);
      return { forward: joinParts(committed.forward, passed.forward), failure: passed.failure };
    }
    if (this.phase !== 'passing') return NOTHING;
    return this.passed(this.passOn.pass(chunk));
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
      return { ...rest, forward: joinParts(committed.forward, rest.forward) };
    }
    if (this.phase !== 'passing') return { forward: null, failure: null, midStreamFailure: null };
    const result = this.passOn.end();
    this.phase = 'stopped';
    return { forward: result.forward, failure: null, midStreamFailure: result.failure };
  }

  /**
   * After the commit: the lines last handed on were read by their next reader, and this is the latest usage
   * it found in them. It is taken as it is, and no usage line of theirs is parsed here.
   */
  usageRead(usage: TokenUsage): void {
    this.passOn.usageRead(usage);
  }

  /** Latest `usage` seen in a frame (prompt/completion tokens), or null. */
  usage(): TokenUsage | null {
    this.latestUsage = this.passOn.usage() ?? this.latestUsage;
    return this.latestUsage;
  }

  /**
   * Once, after the commit of a stream handed on as bytes: the frames read before the commit, and how many of
   * the first forwarded bytes they came from (see `StreamPass.takeReadFrames`).
   */
  takeReadFrames(): FrameBatch | null {
    return this.passOn.takeReadFrames();
  }

  /** The upstream's `[DONE]` came before any content: its stream is over, and held nothing. */
  get doneBeforeContent(): boolean {
    return this.doneHeld;
  }

  /** Bytes currently held: the whole stream so far before commit, the partial last line after. */
  heldBytes(): number {
    if (this.phase === 'holding' || this.phase === 'decided') return this.heldLength;
    return this.passOn.pendingBytes();
  }

  /** Data frames whose JSON could not be parsed (of those read: before commit, and after when passing frames). */
  unparsableFrames(): number {
    return this.reader.unparsable;
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

  /** A result after the commit: one with a failure is the last. */
  private passed(result: PassResult): PassResult {
    if (result.failure) this.phase = 'stopped';
    return result;
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
    this.sniff = verdict === 'maybe' ? start : null;
    return verdict === 'html' ? HTML_PAGE : null;
  }

  /** Reads a held chunk's frames until one decides. */
  private readHeld(chunk: Uint8Array): HoldSignal | null {
    this.reader.read(chunk, this.judgeHeld);
    return this.takeVerdict();
  }

  /** At the end of the stream: its unterminated last line and the event under way. */
  private finishHolding(): HoldSignal | null {
    this.reader.finish(this.judgeHeld);
    return this.takeVerdict();
  }

  private takeVerdict(): HoldSignal | null {
    const verdict = this.verdict;
    this.verdict = null;
    return verdict;
  }

  /** Before commit: an upstream error or the first useful content stops the reading there. */
  private readonly judgeHeld = (frame: UpstreamFrame): boolean => {
    if (frame !== '[DONE]') {
      this.latestUsage = usageAfter(frame, this.latestUsage);
      const failure = frameFailure(frame);
      if (failure) {
        const { errorCode, detail } = failure;
        this.verdict = { type: 'failure', kind: 'error_payload', errorCode, detail };
        return true;
      }
    } else this.doneHeld = true;
    this.passOn.heldFrame(frame);
    if (!frameHasUsefulContent(frame)) return false;
    this.verdict = { type: 'content' };
    return true;
  };
}
