import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StreamPart, UpstreamFrame } from './stream-part.js';
import { StreamTracker, type HoldSignal, type MidStreamFailure } from './stream-tracker.js';

const enc = new TextEncoder();
const bytes = (text: string): Uint8Array => enc.encode(text);
/** A part a tracker in bytes mode handed on: bytes, always. */
function bytesOf(part: StreamPart): Uint8Array {
  assert.ok(part instanceof Uint8Array, 'bytes mode hands on bytes');
  return part;
}
const text = (data: StreamPart | null): string => (data ? Buffer.from(bytesOf(data)).toString('utf8') : '');

const frame = (value: unknown, prefix = 'data: ', eol = '\n'): string =>
  `${prefix}${JSON.stringify(value)}${eol}${eol}`;
const delta = (d: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  frame({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: d, finish_reason: null }],
    ...extra,
  });
const errorFrame = (message = 'Upstream overloaded', code: number | string = 503): string =>
  frame({ error: { message, code } });
const DONE = 'data: [DONE]\n\n';

interface Run {
  signal: HoldSignal | null;
  forwarded: string;
  forwardedBytes: Uint8Array;
  endFailure: { kind: 'empty_stream' } | null;
  midStream: MidStreamFailure | null;
  tracker: StreamTracker;
}

/** Drives a tracker the way the engine does: hold until a verdict, commit, pass the rest, end. */
function run(chunks: Array<string | Uint8Array>, holdLimitBytes = 262_144): Run {
  const tracker = new StreamTracker({ holdLimitBytes });
  const out: Uint8Array[] = [];
  let signal: HoldSignal | null = null;
  let midStream: MidStreamFailure | null = null;
  let committed = false;
  for (const chunk of chunks) {
    const data = typeof chunk === 'string' ? bytes(chunk) : chunk;
    if (!committed) {
      signal = tracker.hold(data);
      if (signal.type === 'failure') break;
      if (signal.type === 'content' || signal.type === 'overflow') {
        committed = true;
        const result = tracker.commit();
        if (result.forward) out.push(bytesOf(result.forward));
        if (result.failure) {
          midStream = result.failure;
          break;
        }
      }
    } else {
      const result = tracker.pass(data);
      if (result.forward) out.push(bytesOf(result.forward));
      if (result.failure) {
        midStream = result.failure;
        break;
      }
    }
  }
  let endFailure: Run['endFailure'] = null;
  if (signal?.type !== 'failure' && !midStream) {
    const end = tracker.end();
    if (end.forward) out.push(bytesOf(end.forward));
    endFailure = end.failure;
    midStream = end.midStreamFailure;
  }
  const forwardedBytes = Buffer.concat(out);
  return { signal, forwarded: text(forwardedBytes), forwardedBytes, endFailure, midStream, tracker };
}

test('content after role-only and whitespace deltas commits everything held', () => {
  const stream = [
    ': OPENROUTER PROCESSING\n\n',
    delta({ role: 'assistant', content: '' }),
    delta({ content: '  \n ' }),
    delta({ content: 'Hello' }),
    delta({ content: ' world' }),
    DONE,
  ];
  const tracker = new StreamTracker({ holdLimitBytes: 10_000 });
  assert.deepEqual(tracker.hold(bytes(stream[0]!)), { type: 'pending' });
  assert.deepEqual(tracker.hold(bytes(stream[1]!)), { type: 'pending' });
  assert.deepEqual(tracker.hold(bytes(stream[2]!)), { type: 'pending' });
  assert.deepEqual(tracker.hold(bytes(stream[3]!)), { type: 'content' });
  const committed = tracker.commit();
  assert.equal(text(committed.forward), stream.slice(0, 4).join(''));
  assert.equal(committed.failure, null);
  assert.equal(text(tracker.pass(bytes(stream[4]!)).forward), stream[4]);
  assert.equal(text(tracker.pass(bytes(stream[5]!)).forward), DONE);
  assert.deepEqual(tracker.end(), { forward: null, failure: null, midStreamFailure: null });
});

test('reasoning first and tool calls first are useful', () => {
  const reasoning = run([delta({ role: 'assistant' }), delta({ reasoning_content: 'Let me think.' })]);
  assert.equal(reasoning.signal?.type, 'content');
  const reasoningField = run([delta({ content: null, reasoning: 'hmm' })]);
  assert.equal(reasoningField.signal?.type, 'content');
  const tool = run([
    delta({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: 't1', function: { name: 'read' } }],
    }),
  ]);
  assert.equal(tool.signal?.type, 'content');
});

test('an error frame before content fails with nothing forwarded', () => {
  const result = run([
    delta({ role: 'assistant' }),
    errorFrame('Rate limit exceeded', 429),
    delta({ content: 'x' }),
  ]);
  assert.deepEqual(result.signal, {
    type: 'failure',
    kind: 'error_payload',
    errorCode: 429,
    detail: 'Rate limit exceeded',
  });
  assert.equal(result.forwarded, '');
  assert.equal(result.tracker.commit().forward, null);
});

test('an error frame after content: forward stops before it and the failure is set', () => {
  const before = delta({ content: 'Partial ' }) + delta({ content: 'answer' });
  const result = run([
    before,
    errorFrame('connection reset', 'upstream_error'),
    delta({ content: 'never' }),
    DONE,
  ]);
  assert.equal(result.forwarded, before);
  assert.deepEqual(result.midStream, {
    kind: 'mid_stream_error',
    errorCode: 'upstream_error',
    detail: 'connection reset',
  });
  assert.deepEqual(result.tracker.pass(bytes(delta({ content: 'more' }))), { forward: null, failure: null });
});

test('an error frame in the same chunk as the first content is caught at commit', () => {
  const first = delta({ role: 'assistant' }) + delta({ content: 'Hi' });
  const tracker = new StreamTracker({ holdLimitBytes: 10_000 });
  assert.equal(tracker.hold(bytes(first + errorFrame('boom', 500) + DONE)).type, 'content');
  const committed = tracker.commit();
  assert.equal(text(committed.forward), first);
  assert.deepEqual(committed.failure, { kind: 'mid_stream_error', errorCode: 500, detail: 'boom' });
  assert.deepEqual(tracker.pass(bytes(DONE)), { forward: null, failure: null });
});

test('[DONE]-only, empty and role-only streams end as empty_stream', () => {
  for (const chunks of [[DONE], [], [''], [delta({ role: 'assistant' }), delta({ content: ' ' }), DONE]]) {
    const result = run(chunks);
    assert.equal(result.signal?.type ?? 'pending', 'pending');
    assert.deepEqual(result.endFailure, { kind: 'empty_stream' });
    assert.equal(result.forwarded, '');
  }
});

test('usage-only frames are neither content nor failure; usage is read before and after commit', () => {
  const usageFrame = (p: number, c: number): string =>
    frame({ choices: [], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c } });
  const early = run([usageFrame(1, 0), DONE]);
  assert.deepEqual(early.endFailure, { kind: 'empty_stream' });
  assert.deepEqual(early.tracker.usage(), { promptTokens: 1, completionTokens: 0 });

  const stream = [delta({ content: 'ok' }, { usage: null }), usageFrame(10, 2), DONE];
  const late = run(stream);
  assert.equal(late.forwarded, stream.join(''));
  assert.equal(late.midStream, null);
  assert.deepEqual(late.tracker.usage(), { promptTokens: 10, completionTokens: 2 });
});

test('overflow once more than the limit is held without a verdict', () => {
  const keepAlive = ': ping\n\n';
  const tracker = new StreamTracker({ holdLimitBytes: 20 });
  assert.equal(tracker.hold(bytes(keepAlive)).type, 'pending');
  assert.equal(tracker.hold(bytes(keepAlive)).type, 'pending');
  assert.equal(tracker.heldBytes(), 16);
  assert.equal(tracker.hold(bytes(keepAlive + 'data: {"par')).type, 'overflow');
  const committed = tracker.commit();
  assert.equal(text(committed.forward), keepAlive.repeat(3));
  assert.equal(tracker.heldBytes(), 'data: {"par'.length);
  assert.equal(text(tracker.pass(bytes('tial":1}\n\n')).forward), 'data: {"partial":1}\n\n');
  assert.deepEqual(tracker.end(), { forward: null, failure: null, midStreamFailure: null });
});

test('an HTML page is html_maintenance, even behind blanks, a BOM or a split', () => {
  for (const chunks of [
    ['<!DOCTYPE html><html><body>Maintenance</body></html>'],
    ['\n\n  <HTML>\n<head>'],
    ['\ufeff<body>502 Bad Gateway</body>'],
    ['  <ht', 'ml lang="en">'],
    ['<', '!doc', 'type html>'],
  ]) {
    const result = run(chunks);
    assert.equal(
      result.signal?.type === 'failure' && result.signal.kind,
      'html_maintenance',
      chunks.join('|'),
    );
    assert.equal(result.forwarded, '');
  }
  assert.deepEqual(run(['<?xml version="1.0"?>\n']).endFailure, { kind: 'empty_stream' });
  assert.deepEqual(run(['<b\nody>']).endFailure, { kind: 'empty_stream' });
});

test('a BOM before the first frame, whole or split across chunks, is not part of the line', () => {
  const first = delta({ content: 'hi' });
  for (const chunks of [
    ['\ufeff' + first],
    [bytes('\ufeff').subarray(0, 2), bytes('\ufeff').subarray(2), first],
  ]) {
    const result = run(chunks);
    assert.equal(result.signal?.type, 'content');
    assert.equal(result.forwarded, '\ufeff' + first, 'the bytes themselves pass through unchanged');
  }
});

test('CRLF, lone CR and "data:" without a space', () => {
  const crlf =
    delta({ role: 'assistant' }).replace(/\n/g, '\r\n') +
    frame({ choices: [{ delta: { content: 'x' } }] }, 'data: ', '\r\n');
  assert.equal(run([crlf]).signal?.type, 'content');
  const splitCrlf = run([
    frame({ choices: [{ delta: { content: 'x' } }] }, 'data:', '\r').slice(0, -1),
    '\r',
    '\n\r\n',
  ]);
  assert.equal(splitCrlf.signal?.type, 'content');
  const loneCr =
    frame({ choices: [{ delta: { content: 'y' } }] }, 'data:', '\r') +
    frame({ error: { message: 'late' } }, 'data:', '\r');
  const result = run([loneCr]);
  assert.equal(result.signal?.type, 'content');
  assert.equal(result.midStream?.detail, 'late');
  assert.equal(result.forwarded, loneCr.slice(0, loneCr.indexOf('data:{"error"')));
});

test('multi-line data is joined; one JSON per line without blank lines is read too', () => {
  const multi = 'data: {"choices":\ndata: [{"delta":{"content":"joined"}}]}\n\n';
  assert.equal(run([multi]).signal?.type, 'content');
  const multiError = 'data: {"error":\ndata: {"message":"split error","code":502}}\n\n';
  assert.deepEqual(run([multiError]).signal, {
    type: 'failure',
    kind: 'error_payload',
    errorCode: 502,
    detail: 'split error',
  });
  const noBlank =
    'data: {"choices":[{"delta":{"role":"assistant"}}]}\ndata: {"choices":[{"delta":{"content":"a"}}]}\n';
  assert.equal(run([noBlank]).signal?.type, 'content');
});

test('comments, event, id and retry lines are ignored', () => {
  const stream =
    ': keep-alive\n\nevent: message\nid: 7\nretry: 1000\n' +
    delta({ content: 'ok' }) +
    'event: done\n' +
    DONE;
  const result = run([stream]);
  assert.equal(result.signal?.type, 'content');
  assert.equal(result.forwarded, stream);
  assert.equal(run([': data: {"choices":[{"delta":{"content":"x"}}]}\n\n']).signal?.type, 'pending');
});

test('a multibyte character split across chunks decodes whole', () => {
  const stream = bytes(delta({ role: 'assistant' }) + delta({ content: 'é😀' }));
  const cut = stream.indexOf(0xf0) + 2; // inside the 4-byte emoji
  const result = run([stream.subarray(0, cut), stream.subarray(cut)]);
  assert.equal(result.signal?.type, 'content');
  assert.deepEqual(result.forwardedBytes, Buffer.from(stream));
  const whitespaceOnly = bytes(delta({ content: '\u3000' }));
  assert.equal(run([whitespaceOnly.subarray(0, 30), whitespaceOnly.subarray(30)]).signal?.type, 'pending');
});

test('invalid UTF-8 never throws and counts as unparsable', () => {
  const garbage = new Uint8Array([
    0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0xfe, 0xc3, 0x0a, 0x0a, 0x80, 0x0d,
  ]);
  const result = run([garbage, garbage]);
  assert.deepEqual(result.endFailure, { kind: 'empty_stream' });
  assert.equal(result.tracker.unparsableFrames(), 2);
  const afterContent = run([delta({ content: 'x' }), garbage, new Uint8Array([0xf0, 0x9f])]);
  assert.equal(afterContent.midStream, null);
  assert.deepEqual(afterContent.forwardedBytes.subarray(-15), Buffer.from([...garbage, 0xf0, 0x9f]));
});

test('a partial line is held across pass() calls until its newline arrives', () => {
  const tracker = new StreamTracker({ holdLimitBytes: 1000 });
  assert.equal(tracker.hold(bytes(delta({ content: 'a' }))).type, 'content');
  tracker.commit();
  const next = delta({ content: 'b' });
  assert.deepEqual(tracker.pass(bytes(next.slice(0, 10))), { forward: null, failure: null });
  assert.deepEqual(tracker.pass(bytes(next.slice(10, 20))), { forward: null, failure: null });
  assert.equal(tracker.heldBytes(), 20);
  assert.equal(text(tracker.pass(bytes(next.slice(20, -1))).forward), next.slice(0, -1));
  assert.equal(text(tracker.pass(bytes('\n')).forward), '\n');
  assert.deepEqual(tracker.end(), { forward: null, failure: null, midStreamFailure: null });
});

test('a partial line longer than the limit is forwarded as it is', () => {
  const tracker = new StreamTracker({ holdLimitBytes: 1024 });
  tracker.hold(bytes(delta({ content: 'a' })));
  tracker.commit();
  const long = `data: {"choices":[{"delta":{"content":"${'x'.repeat(2000)}`;
  assert.equal(text(tracker.pass(bytes(long)).forward), long);
  assert.equal(text(tracker.pass(bytes('"}}]}\n\n')).forward), '"}}]}\n\n');
});

test('text that talks about errors is not an error frame', () => {
  const stream = [
    delta({ content: 'Handle the "error": null case' }),
    delta({ content: 'and {"error": {"message": "x"}}' }),
    frame({ choices: [{ delta: { content: 'y' } }], error: null }),
    DONE,
  ];
  const result = run(stream);
  assert.equal(result.midStream, null);
  assert.equal(result.forwarded, stream.join(''));
});

test('end() after commit forwards the unterminated tail, unless it is an error frame', () => {
  const ok = run([delta({ content: 'a' }), 'data: {"choices":[{"delta":{"content":"b"}}]}']);
  assert.equal(ok.forwarded.endsWith('"b"}}]}'), true);
  const bad = run([delta({ content: 'a' }), 'data: {"error":{"message":"cut","code":500}}']);
  assert.equal(bad.forwarded, delta({ content: 'a' }));
  assert.deepEqual(bad.midStream, { kind: 'mid_stream_error', errorCode: 500, detail: 'cut' });
});

test('end() before commit with content in the unterminated last line forwards everything', () => {
  const stream = delta({ role: 'assistant' }) + 'data: {"choices":[{"delta":{"content":"last"}}]}';
  const tracker = new StreamTracker({ holdLimitBytes: 1000 });
  assert.equal(tracker.hold(bytes(stream)).type, 'pending');
  assert.deepEqual(tracker.end(), { forward: Buffer.from(stream), failure: null, midStreamFailure: null });
});

test('after a failure the tracker stays failed and forwards nothing', () => {
  const tracker = new StreamTracker({ holdLimitBytes: 1000 });
  const failure = tracker.hold(bytes(errorFrame('nope', 401)));
  assert.equal(failure.type, 'failure');
  assert.deepEqual(tracker.hold(bytes(delta({ content: 'x' }))), failure);
  assert.deepEqual(tracker.commit(), { forward: null, failure: null });
  assert.deepEqual(tracker.end(), { forward: null, failure: null, midStreamFailure: null });
  assert.equal(tracker.heldBytes(), 0);
});

test('a multi-line error frame after content is caught when its lines arrive together', () => {
  for (const eol of ['\n', '\r\n']) {
    const content = delta({ content: 'partial' });
    const error = `data: {"error":${eol}data: {"message":"joined","code":503}}${eol}${eol}`;
    const result = run([content, error + DONE]);
    assert.equal(result.forwarded, content, JSON.stringify(eol));
    assert.deepEqual(result.midStream, { kind: 'mid_stream_error', errorCode: 503, detail: 'joined' });
  }
});

test('an unparsable data line does not swallow the JSON lines after it', () => {
  const stream = 'data: {oops\ndata: {"choices":[{"delta":{"content":"fine"}}]}\n';
  const result = run([stream]);
  assert.equal(result.signal?.type, 'content');
  assert.equal(result.tracker.unparsableFrames(), 1);
});

test('an error line that ends a multi-line content event before commit is still caught', () => {
  const content = 'data: {\ndata: "choices":[{"delta":{"content":"hi"}}]}\n';
  const result = run([content + 'data: {"error":{"message":"after","code":500}}\n\n']);
  assert.equal(result.signal?.type, 'content');
  assert.equal(result.forwarded, content);
  assert.deepEqual(result.midStream, { kind: 'mid_stream_error', errorCode: 500, detail: 'after' });
});

test('usage repeated in every frame is read lazily, the latest one wins', () => {
  const stream = [1, 2, 3].map((n) =>
    delta({ content: `t${n}` }, { usage: { prompt_tokens: 5, completion_tokens: n } }),
  );
  const result = run([stream[0]!, stream[1]! + stream[2]!]);
  assert.equal(result.forwarded, stream.join(''));
  assert.deepEqual(result.tracker.usage(), { promptTokens: 5, completionTokens: 3 });
  assert.deepEqual(result.tracker.usage(), { promptTokens: 5, completionTokens: 3 });
});

test('one JSON per line after an unfinished event: the event does not swallow a later error line', () => {
  const content = delta({ content: 'a' });
  const stray = 'data: {"partial":\n';
  const result = run([content, stray + 'data: {"error":{"message":"late","code":502}}\n\n']);
  assert.equal(result.forwarded, content + stray);
  assert.equal(result.midStream?.detail, 'late');
});

test('a partial line kept for the next chunk is a copy: the caller may reuse its chunk', () => {
  const tracker = new StreamTracker({ holdLimitBytes: 262_144 });
  assert.equal(tracker.hold(bytes(delta({ content: 'hi' }))).type, 'content');
  tracker.commit();
  const chunk = Buffer.from(`${delta({ content: 'a' })}data: {"par`);
  const passed = tracker.pass(chunk);
  assert.equal(text(passed.forward), delta({ content: 'a' }));
  chunk.fill(0x2a);
  assert.equal(text(tracker.pass(bytes('tial":1}\n\n')).forward), 'data: {"partial":1}\n\n');
});

/** A tracker that hands on frames: every frame it handed on, in order. */
function framesOf(part: StreamPart | null): readonly UpstreamFrame[] {
  if (part === null) return [];
  assert.ok(!(part instanceof Uint8Array), 'frames mode hands on frames');
  return part.frames;
}

test('frames mode: the frames judged before the commit go on first, then the rest, each parsed once', () => {
  const tracker = new StreamTracker({ holdLimitBytes: 10_000, reading: 'frames' });
  const role = { choices: [{ index: 0, delta: { role: 'assistant' } }] };
  const hi = { choices: [{ index: 0, delta: { content: 'Hi' } }] };
  const there = { choices: [{ index: 0, delta: { content: ' there' } }] };
  assert.equal(tracker.hold(bytes(frame(role) + frame(hi) + 'data: {"choi')).type, 'content');
  assert.deepEqual(framesOf(tracker.commit().forward), [role, hi]);
  assert.deepEqual(framesOf(tracker.pass(bytes('ces":[]}\n\n' + frame(there) + DONE)).forward), [
    { choices: [] },
    there,
    '[DONE]',
  ]);
  assert.deepEqual(tracker.end(), { forward: null, failure: null, midStreamFailure: null });
});

test('frames mode: an error frame after content ends the frames before it, with the failure', () => {
  const tracker = new StreamTracker({ holdLimitBytes: 10_000, reading: 'frames' });
  const usage = { choices: [], usage: { prompt_tokens: 4, completion_tokens: 2 } };
  assert.equal(tracker.hold(bytes(delta({ content: 'a' }))).type, 'content');
  assert.equal(framesOf(tracker.commit().forward).length, 1);
  const passed = tracker.pass(bytes(frame(usage) + errorFrame('boom', 500) + delta({ content: 'never' })));
  assert.deepEqual(framesOf(passed.forward), [usage]);
  assert.deepEqual(passed.failure, { kind: 'mid_stream_error', errorCode: 500, detail: 'boom' });
  assert.deepEqual(tracker.pass(bytes(delta({ content: 'more' }))), { forward: null, failure: null });
  assert.deepEqual(tracker.usage(), { promptTokens: 4, completionTokens: 2 });
});

test('bytes brought to hold() after the commit are handed on at the end, in either reading', () => {
  const last = delta({ content: 'late' });
  for (const reading of ['bytes', 'frames'] as const) {
    const tracker = new StreamTracker({ holdLimitBytes: 10_000, reading });
    assert.equal(tracker.hold(bytes(delta({ content: 'a' }))).type, 'content');
    tracker.commit();
    assert.equal(tracker.hold(bytes(last)).type, 'content');
    const { forward } = tracker.end();
    if (reading === 'bytes') assert.equal(text(forward), last);
    else assert.deepEqual(framesOf(forward), [JSON.parse(last.slice(6)) as UpstreamFrame]);
  }
});
