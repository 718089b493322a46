import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkResponseBody } from './response-gate.js';
import { decodeLine } from './sse-bytes.js';
import { SseFrameReader } from './sse-frames.js';
import { type StreamPart, type StreamReading, type UpstreamFrame } from './stream-part.js';
import { StreamTracker } from './stream-tracker.js';

const RUNS = 300;

type Kind =
  'content' | 'whitespace' | 'role' | 'reasoning' | 'tool' | 'usage' | 'comment' | 'event' | 'error' | 'done';
interface Frame {
  kind: Kind;
  text: string;
  prefix: 'data: ' | 'data:';
  eol: '\n' | '\r\n' | '\r';
  /** Single-line frames may skip the blank line; multi-line ones never do. */
  blank: boolean;
  multiLine: boolean;
}

const NON_EMPTY = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');
const WHITESPACE = fc.string({ unit: fc.constantFrom(' ', '\n', '\t', '\r', '\u3000'), maxLength: 4 });
const WORD = fc.stringMatching(/^[a-z0-9 -]{0,12}$/);

const chunk = (delta: Record<string, unknown>): unknown => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: null }],
});

function payload(kind: Kind, text: string): string {
  switch (kind) {
    case 'content':
      return JSON.stringify(chunk({ content: text }));
    case 'whitespace':
      return JSON.stringify(chunk({ content: text }));
    case 'role':
      return JSON.stringify(chunk(text === '' ? { role: 'assistant' } : { role: 'assistant', content: '' }));
    case 'reasoning':
      return JSON.stringify(chunk({ content: null, reasoning_content: text }));
    case 'tool':
      return JSON.stringify(
        chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: text, arguments: '' } }] }),
      );
    case 'usage':
      return JSON.stringify({ choices: [], usage: { prompt_tokens: text.length, completion_tokens: 1 } });
    case 'error':
      return JSON.stringify({ error: { message: `upstream failure ${text}`, code: 502 } });
    default:
      return '';
  }
}

function render(frame: Frame): string {
  const { eol } = frame;
  if (frame.kind === 'comment') return `:${frame.text}${eol}`;
  if (frame.kind === 'event') return `event: ${frame.text}${eol}`;
  if (frame.kind === 'done') return `${frame.prefix}[DONE]${eol}${eol}`;
  const json = payload(frame.kind, frame.text);
  if (frame.multiLine && frame.kind !== 'error') {
    // `{` then the rest: a newline between JSON tokens keeps the joined data valid.
    return `${frame.prefix}{${eol}${frame.prefix}${json.slice(1)}${eol}${eol}`;
  }
  return `${frame.prefix}${json}${eol}${frame.blank ? eol : ''}`;
}

const frameOf = (kinds: Kind[]): fc.Arbitrary<Frame> =>
  fc.constantFrom(...kinds).chain((kind) =>
    fc.record({
      kind: fc.constant(kind),
      text:
        kind === 'whitespace'
          ? WHITESPACE
          : kind === 'comment' || kind === 'event' || kind === 'role'
            ? WORD
            : NON_EMPTY,
      prefix: fc.constantFrom('data: ' as const, 'data:' as const),
      eol: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const),
      blank: fc.boolean(),
      multiLine: fc.boolean(),
    }),
  );

const ALL: Kind[] = [
  'content',
  'whitespace',
  'role',
  'reasoning',
  'tool',
  'usage',
  'comment',
  'event',
  'error',
  'done',
];
const USEFUL: Kind[] = ['content', 'reasoning', 'tool'];
const USELESS: Kind[] = ['whitespace', 'role', 'usage', 'comment', 'event', 'done'];

interface Outcome {
  verdict: string;
  forwarded: string;
}

/** Drives a tracker as the engine does: its verdict and every part it handed on. */
function run(
  chunks: Uint8Array[],
  holdLimitBytes: number,
  reading: StreamReading,
): { verdict: string; parts: StreamPart[] } {
  const tracker = new StreamTracker({ holdLimitBytes, reading });
  const parts: StreamPart[] = [];
  let verdict = '';
  let committed = false;
  const take = (result: { forward: StreamPart | null; failure: { kind: string } | null }): boolean => {
    if (result.forward) parts.push(result.forward);
    if (result.failure) verdict += `+${result.failure.kind}`;
    return result.failure !== null;
  };
  for (const piece of chunks) {
    if (committed) {
      if (take(tracker.pass(piece))) return { verdict, parts };
      continue;
    }
    const signal = tracker.hold(piece);
    if (signal.type === 'failure') return { verdict: signal.kind, parts: [] };
    if (signal.type === 'pending') continue;
    verdict = signal.type;
    committed = true;
    if (take(tracker.commit())) return { verdict, parts };
  }
  const end = tracker.end();
  if (end.forward) parts.push(end.forward);
  if (end.failure) verdict = end.failure.kind;
  else if (!committed) verdict = 'content';
  if (end.midStreamFailure) verdict += `+${end.midStreamFailure.kind}`;
  return { verdict, parts };
}

/** A bytes-mode tracker's verdict and every forwarded byte. */
function drive(chunks: Uint8Array[], holdLimitBytes = 1 << 30): Outcome {
  const { verdict, parts } = run(chunks, holdLimitBytes, 'bytes');
  const bytes = parts.map((part) => {
    assert.ok(part instanceof Uint8Array, 'bytes mode hands on bytes');
    return part;
  });
  return { verdict, forwarded: Buffer.concat(bytes).toString('latin1') };
}

/** A frames-mode tracker's verdict and every frame it handed on. */
function driveFrames(chunks: Uint8Array[]): { verdict: string; frames: UpstreamFrame[] } {
  const { verdict, parts } = run(chunks, 1 << 30, 'frames');
  const frames = parts.flatMap((part) => {
    assert.ok(!(part instanceof Uint8Array), 'frames mode hands on frames');
    return part.frames;
  });
  return { verdict, frames };
}

/** The frames a fresh reader finds in `latin1` bytes read whole. */
function framesIn(latin1Bytes: string): UpstreamFrame[] {
  const frames: UpstreamFrame[] = [];
  const reader = new SseFrameReader();
  const keep = (frame: UpstreamFrame): boolean => frames.push(frame) < 0;
  reader.read(Buffer.from(latin1Bytes, 'latin1'), keep);
  reader.finish(keep);
  return frames;
}

/** What the stream means, read from the frames themselves. */
function expected(frames: Frame[]): Outcome {
  const whole = frames.map(render).join('');
  let offset = 0;
  let content = false;
  for (const frame of frames) {
    const rendered = render(frame);
    if (frame.kind === 'error') {
      if (!content) return { verdict: 'error_payload', forwarded: '' };
      return { verdict: 'content+mid_stream_error', forwarded: latin1(whole.slice(0, offset)) };
    }
    if (USEFUL.includes(frame.kind)) content = true;
    offset += rendered.length;
  }
  return content
    ? { verdict: 'content', forwarded: latin1(whole) }
    : { verdict: 'empty_stream', forwarded: '' };
}

const latin1 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

/** Cuts bytes at the given fractions of their length (or at every byte). */
function split(bytes: Uint8Array, cuts: number[] | 'every'): Uint8Array[] {
  if (cuts === 'every') return Array.from(bytes, (_b, i) => bytes.subarray(i, i + 1));
  const points = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(from, point));
    from = point;
  }
  return pieces;
}

const CUTS = fc.oneof(
  { weight: 9, arbitrary: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 24 }) },
  { weight: 1, arbitrary: fc.constant('every' as const) },
);
const toBytes = (frames: Frame[]): Uint8Array => new TextEncoder().encode(frames.map(render).join(''));

test('verdict and forwarded bytes do not depend on chunk boundaries, and match the frames', () => {
  fc.assert(
    fc.property(fc.array(frameOf(ALL), { maxLength: 14 }), CUTS, (frames, cuts) => {
      const bytes = toBytes(frames);
      const whole = drive([bytes]);
      assert.deepEqual(drive(split(bytes, cuts)), whole);
      assert.deepEqual(whole, expected(frames));
    }),
    { numRuns: RUNS },
  );
});

test('frames mode hands on, whatever the chunk boundaries, the frames of the bytes bytes mode forwards', () => {
  fc.assert(
    fc.property(fc.array(frameOf(ALL), { maxLength: 14 }), CUTS, (frames, cuts) => {
      const pieces = split(toBytes(frames), cuts);
      const bytes = drive(pieces);
      const read = driveFrames(pieces);
      assert.equal(read.verdict, bytes.verdict);
      assert.deepEqual(read.frames, framesIn(bytes.forwarded));
    }),
    { numRuns: RUNS },
  );
});

test('whitespace-only, role-only and lifecycle streams are never judged useful', () => {
  fc.assert(
    fc.property(fc.array(frameOf(USELESS), { maxLength: 14 }), CUTS, (frames, cuts) => {
      assert.deepEqual(drive(split(toBytes(frames), cuts)), { verdict: 'empty_stream', forwarded: '' });
    }),
    { numRuns: RUNS },
  );
});

test('an error frame before content is never missed', () => {
  fc.assert(
    fc.property(
      fc.array(frameOf(USELESS), { maxLength: 8 }),
      frameOf(['error']),
      fc.array(frameOf(ALL), { maxLength: 6 }),
      CUTS,
      (before, error, after, cuts) => {
        const outcome = drive(split(toBytes([...before, error, ...after]), cuts));
        assert.deepEqual(outcome, { verdict: 'error_payload', forwarded: '' });
      },
    ),
    { numRuns: RUNS },
  );
});

test('an error frame after content never appears in the forwarded bytes', () => {
  fc.assert(
    fc.property(
      fc.array(frameOf(USELESS), { maxLength: 5 }),
      frameOf(USEFUL),
      fc.array(frameOf(ALL.filter((k) => k !== 'error')), { maxLength: 6 }),
      frameOf(['error']),
      fc.array(frameOf(ALL), { maxLength: 6 }),
      CUTS,
      (lead, useful, middle, error, after, cuts) => {
        const outcome = drive(split(toBytes([...lead, useful, ...middle, error, ...after]), cuts));
        assert.equal(outcome.verdict, 'content+mid_stream_error');
        assert.equal(outcome.forwarded.includes('"error"'), false);
        assert.equal(outcome.forwarded, latin1([...lead, useful, ...middle].map(render).join('')));
      },
    ),
    { numRuns: RUNS },
  );
});

const SSE_TOKENS = [
  'data:',
  'data: ',
  '\n',
  '\r',
  '\r\n',
  '{"error":',
  '{"choices":[{"delta":{"content":"x"}}]}',
  '"usage":{',
  '}',
  ':',
  '[DONE]',
  '<html',
  '\ufeff',
];

const READING = fc.constantFrom('bytes' as const, 'frames' as const);

test('the tracker never throws, whatever the bytes and call order, in either reading', () => {
  const piece = fc.oneof(
    fc.uint8Array({ maxLength: 64 }),
    fc.constantFrom(...SSE_TOKENS).map((t) => new TextEncoder().encode(t)),
  );
  const op = fc.record({
    call: fc.constantFrom('hold', 'hold', 'pass', 'commit', 'end', 'usage'),
    bytes: piece,
  });
  fc.assert(
    fc.property(
      fc.array(op, { maxLength: 40 }),
      fc.integer({ min: 1, max: 300 }),
      READING,
      (ops, limit, reading) => {
        const tracker = new StreamTracker({ holdLimitBytes: limit, reading });
        for (const { call, bytes } of ops) {
          if (call === 'hold') tracker.hold(bytes);
          else if (call === 'pass') tracker.pass(bytes);
          else if (call === 'commit') tracker.commit();
          else if (call === 'end') tracker.end();
          else tracker.usage();
        }
        assert.ok(tracker.heldBytes() >= 0);
      },
    ),
    { numRuns: RUNS },
  );
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.uint8Array({ maxLength: 200 }), piece), { maxLength: 30 }), (chunks) => {
      const outcome = drive(chunks, 128);
      assert.equal(typeof outcome.verdict, 'string');
    }),
    { numRuns: RUNS },
  );
});

test('checkResponseBody never throws on arbitrary strings', () => {
  const jsonish = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 100 }),
    fc.json({ maxDepth: 4 }),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify({ choices: [value], error: null })),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ error: value })),
  );
  fc.assert(
    fc.property(
      jsonish,
      fc.option(fc.string({ maxLength: 30 })),
      fc.constantFrom('strict' as const, 'basic' as const, 'off' as const),
      (body, contentType, mode) => {
        const verdict = checkResponseBody(body, contentType, mode);
        assert.equal(typeof verdict.ok, 'boolean');
      },
    ),
    { numRuns: RUNS },
  );
});

test('decodeLine reads any bytes as a fresh TextDecoder reads them', () => {
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 64 }),
    // Valid text, with a BOM in front or not, cut anywhere (a cut may split a character).
    fc
      .tuple(fc.boolean(), fc.string({ unit: 'grapheme', maxLength: 16 }), fc.nat())
      .map(([bom, text, cut]) => {
        const all = Buffer.from(`${bom ? '\uFEFF' : ''}${text}`, 'utf8');
        return all.subarray(0, all.length === 0 ? 0 : cut % (all.length + 1));
      }),
  );
  fc.assert(
    fc.property(bytes, (input) => {
      assert.equal(decodeLine(input), new TextDecoder().decode(input));
    }),
    { numRuns: 2000 },
  );
});
