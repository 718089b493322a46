/**
 * Reads the upstream's chat-completions SSE lines for a face encoder: each `data:` line's JSON is parsed
 * exactly once; comments, `event:` lines and anything that is not a JSON object are skipped. Lines arrive
 * whole from the engine, but a trailing partial line is kept for the next call rather than misread.
 */
import { Buffer } from 'node:buffer';
import { isRecord, parseJson } from '../gate/safe-json.js';
import { dataValue } from '../gate/sse-bytes.js';

/** Receives the upstream frames in order. */
export interface FrameSink {
  frame(value: Record<string, unknown>): void;
  /** `data: [DONE]`: the upstream's answer is whole. */
  done(): void;
}

const LINE_END = /\r\n|\r|\n/;

function lastLineEnd(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0; i -= 1) {
    if (bytes[i] === 0x0a || bytes[i] === 0x0d) return i + 1;
  }
  return 0;
}

const view = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** One per stream: splits lines, parses data values, hands frames to a sink. */
export class UpstreamLineReader {
  #rest: Uint8Array | null = null;
  /** Data lines of one event that did not parse alone (an event split over several `data:` lines). */
  #group: string[] = [];

  /** Reads the complete lines in `bytes` (after any partial line kept from before). */
  read(bytes: Uint8Array, sink: FrameSink): void {
    let input = bytes;
    if (this.#rest) {
      input = Buffer.concat([this.#rest, bytes]);
      this.#rest = null;
    }
    const end = lastLineEnd(input);
    if (end < input.length) this.#rest = Uint8Array.prototype.slice.call(input, end);
    if (end === 0) return;
    const text = view(input).toString('utf8', 0, end);
    for (const line of text.split(LINE_END)) this.#line(line, sink);
  }

  /** The upstream ended: a last line with no line end, and any open multi-line event, are read now. */
  end(sink: FrameSink): void {
    if (this.#rest) {
      const text = view(this.#rest).toString('utf8');
      this.#rest = null;
      this.#line(text, sink);
    }
    this.#flush(sink);
  }

  #line(line: string, sink: FrameSink): void {
    if (line === '') {
      this.#flush(sink);
      return;
    }
    const value = dataValue(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
    if (value === null) return;
    if (value === '[DONE]') {
      this.#flush(sink);
      sink.done();
      return;
    }
    if (this.#group.length === 0 && value.charCodeAt(0) === 0x7b) {
      const parsed = parseJson(value);
      if (parsed.ok) {
        if (isRecord(parsed.value)) sink.frame(parsed.value);
        return;
      }
    }
    this.#group.push(value);
  }

  #flush(sink: FrameSink): void {
    if (this.#group.length === 0) return;
    const parsed = parseJson(this.#group.join('\n'));
    this.#group = [];
    if (parsed.ok && isRecord(parsed.value)) sink.frame(parsed.value);
  }
}
