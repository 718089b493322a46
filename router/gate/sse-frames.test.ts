import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseFrameReader } from './sse-frames.js';
import { type UpstreamFrame } from './stream-part.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Every frame of `pieces`, read in turn (and finished when `end`). */
function read(pieces: (string | Uint8Array)[], end = false): UpstreamFrame[] {
  const reader = new SseFrameReader();
  const seen: UpstreamFrame[] = [];
  const keep = (frame: UpstreamFrame): boolean => seen.push(frame) < 0;
  for (const piece of pieces) reader.read(typeof piece === 'string' ? bytes(piece) : piece, keep);
  if (end) reader.finish(keep);
  return seen;
}

test('data lines become frames in order; [DONE] is one; comments, event lines and blank lines are skipped', () => {
  const seen = read([': keep-alive\n\nevent: message\ndata: {"a":1}\n\ndata:{"b":2}\n\ndata: [DONE]\n\n']);
  assert.deepEqual(seen, [{ a: 1 }, { b: 2 }, '[DONE]']);
});

test('CRLF and CR line ends, and a leading BOM, read like LF', () => {
  assert.deepEqual(read(['\ufeffdata: {"a":1}\r\n\r\ndata: {"b":2}\r\rdata: [DONE]\r\n']), [
    { a: 1 },
    { b: 2 },
    '[DONE]',
  ]);
});

test('a line split across reads (even inside a UTF-8 character, or between CR and LF) is read once whole', () => {
  const whole = bytes('data: {"t":"é€"}\r\n\r\ndata: {"u":1}\n\n');
  const cut = whole.indexOf(0xe2) + 1; // inside the three bytes of €
  const afterCr = whole.indexOf(0x0d) + 1;
  assert.deepEqual(read([whole.subarray(0, cut), whole.subarray(cut)]), [{ t: 'é€' }, { u: 1 }]);
  assert.deepEqual(read([whole.subarray(0, afterCr), whole.subarray(afterCr)]), [{ t: 'é€' }, { u: 1 }]);
});

test('a last line with no line end is read at the finish', () => {
  assert.deepEqual(read(['data: {"a":1}\n\ndata: {"b":2}']), [{ a: 1 }]);
  assert.deepEqual(read(['data: {"a":1}\n\ndata: {"b":2}'], true), [{ a: 1 }, { b: 2 }]);
});

test('an event whose JSON spans several data lines is joined at the blank line; one JSON per line needs none', () => {
  assert.deepEqual(read(['data: {"a":\ndata: 1}\n\n']), [{ a: 1 }]);
  assert.deepEqual(read(['data:  {"a":1}\ndata: {"b":2}\n']), [{ a: 1 }, { b: 2 }]);
});

test('values that are not JSON objects are skipped and counted', () => {
  const reader = new SseFrameReader();
  const seen: UpstreamFrame[] = [];
  reader.read(bytes('data: [1,2]\n\ndata: "x"\n\ndata: nonsense\n\ndata: {"ok":true}\n\n'), (frame) => {
    seen.push(frame);
    return false;
  });
  assert.deepEqual(seen, [{ ok: true }]);
  assert.equal(reader.unparsable, 3);
});

test('a stop leaves the bytes after the stopping frame unread, and reading goes on from there', () => {
  const text = 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: {"c":3}\n\n';
  const reader = new SseFrameReader();
  const seen: UpstreamFrame[] = [];
  const all = bytes(text);
  assert.equal(
    reader.read(all, (frame) => seen.push(frame) === 2),
    'stopped',
  );
  // Just past the stopping frame's line: the blank line after it is read next.
  assert.equal(reader.readTo, text.indexOf('{"b":2}\n') + '{"b":2}\n'.length);
  assert.equal(
    reader.read(all.subarray(reader.readTo), (frame) => seen.push(frame) < 0),
    'read',
  );
  assert.deepEqual(seen, [{ a: 1 }, { b: 2 }, { c: 3 }]);
});

test('a stop at an event closed by the next JSON line leaves that line to be read again', () => {
  const text = 'data: {"a":\ndata: 1}\ndata: {"b":2}\n';
  const reader = new SseFrameReader();
  const seen: UpstreamFrame[] = [];
  const all = bytes(text);
  assert.equal(
    reader.read(all, (frame) => seen.push(frame) === 1),
    'stopped',
  );
  assert.deepEqual([...seen], [{ a: 1 }]);
  assert.equal(reader.readTo, text.indexOf('data: {"b"'));
  reader.read(all.subarray(reader.readTo), (frame) => seen.push(frame) < 0);
  assert.deepEqual(seen, [{ a: 1 }, { b: 2 }]);
});

test('a partial line past the longest kept is reported', () => {
  const reader = new SseFrameReader();
  const big = new Uint8Array(32 * 1024 * 1024).fill(0x61);
  assert.equal(
    reader.read(big, () => false),
    'read',
  );
  assert.equal(
    reader.read(bytes('a'), () => false),
    'line_too_long',
  );
});
