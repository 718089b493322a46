import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamLineReader, type FrameSink } from './upstream-lines.js';

class Recorder implements FrameSink {
  readonly seen: unknown[] = [];
  frame(value: Record<string, unknown>): void {
    this.seen.push(value);
  }
  done(): void {
    this.seen.push('DONE');
  }
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function read(pieces: (string | Uint8Array)[], end = false): unknown[] {
  const reader = new UpstreamLineReader();
  const sink = new Recorder();
  for (const piece of pieces) reader.read(typeof piece === 'string' ? bytes(piece) : piece, sink);
  if (end) reader.end(sink);
  return sink.seen;
}

test('data lines become frames in order; [DONE] ends; comments, event lines and blank lines are skipped', () => {
  const seen = read([': keep-alive\n\nevent: message\ndata: {"a":1}\n\ndata:{"b":2}\n\ndata: [DONE]\n\n']);
  assert.deepEqual(seen, [{ a: 1 }, { b: 2 }, 'DONE']);
});

test('CRLF and CR line ends, and a leading BOM, read like LF', () => {
  assert.deepEqual(read(['\ufeffdata: {"a":1}\r\n\r\ndata: {"b":2}\r\rdata: [DONE]\r\n']), [
    { a: 1 },
    { b: 2 },
    'DONE',
  ]);
});

test('a line split across calls (even inside a UTF-8 character) is read once it is whole', () => {
  const whole = bytes('data: {"t":"é€"}\n\n');
  const cut = whole.indexOf(0xe2) + 1; // inside the three bytes of €
  assert.deepEqual(read([whole.subarray(0, cut), whole.subarray(cut)]), [{ t: 'é€' }]);
});

test('a last line with no line end is read at the end', () => {
  assert.deepEqual(read(['data: {"a":1}\n\ndata: {"b":2}']), [{ a: 1 }]);
  assert.deepEqual(read(['data: {"a":1}\n\ndata: {"b":2}'], true), [{ a: 1 }, { b: 2 }]);
});

test('an event whose JSON spans several data lines is joined at the blank line', () => {
  assert.deepEqual(read(['data: {"a":\ndata: 1}\n\n']), [{ a: 1 }]);
});

test('values that are not JSON objects are skipped', () => {
  assert.deepEqual(read(['data: [1,2]\n\ndata: "x"\n\ndata: nonsense\n\ndata: {"ok":true}\n\n']), [
    { ok: true },
  ]);
});
