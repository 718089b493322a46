/**
 * Property tests of both stream encoders behind the gate: however the upstream's lines are grouped into calls
 * (and even when a call ends inside a line), the client gets the same bytes; and the events are well formed and carry
 * exactly the upstream's reasoning, text and tool arguments.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { AnswerEncoder } from './answer-encoder.js';
import { MessagesEncoder } from './anthropic-encoder.js';
import { ResponsesEncoder } from './responses-encoder.js';
import { chunk, DONE, parseSse, runStream, toolPiece, usageChunk } from './test-kit.js';

type Step =
  | { kind: 'reasoning'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool'; id: string | null; name: string; pieces: string[] };

const piece = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('reasoning' as const), text: piece }),
  fc.record({ kind: fc.constant('text' as const), text: piece }),
  fc.record({
    kind: fc.constant('tool' as const),
    id: fc.option(fc.stringMatching(/^call_[a-z0-9]{1,6}$/), { nil: null }),
    name: fc.stringMatching(/^[A-Za-z][A-Za-z_]{0,8}$/),
    pieces: fc.array(piece, { minLength: 1, maxLength: 3 }),
  }),
);

interface Script {
  steps: Step[];
  finish: 'stop' | 'length' | 'tool_calls';
  usage: boolean;
  done: boolean;
  crlf: boolean;
}

/** A stream with nothing useful in it never reaches an encoder: the gate fails it over (`empty_stream`). */
const useful = (s: Script): boolean => s.steps.some((st) => st.kind === 'tool' || st.text.trim() !== '');

const script: fc.Arbitrary<Script> = fc
  .record({
    steps: fc.array(step, { minLength: 1, maxLength: 8 }),
    finish: fc.constantFrom('stop' as const, 'length' as const, 'tool_calls' as const),
    usage: fc.boolean(),
    done: fc.boolean(),
    crlf: fc.boolean(),
  })
  .filter(useful);

/** The upstream's SSE text for a script: tool calls take consecutive indexes, each named in its first piece. */
function upstream(s: Script): string {
  let out = ': upstream comment\n\n' + chunk({ role: 'assistant', content: '' });
  let tool = 0;
  for (const st of s.steps) {
    if (st.kind === 'reasoning') out += chunk({ reasoning_content: st.text });
    else if (st.kind === 'text') out += chunk({ content: st.text });
    else {
      st.pieces.forEach((args, i) => {
        out += chunk({
          tool_calls: [i === 0 ? toolPiece(tool, st.id, st.name, args) : toolPiece(tool, null, null, args)],
        });
      });
      tool += 1;
    }
  }
  out += chunk({}, s.finish);
  if (s.usage) out += usageChunk(11, 22);
  if (s.done) out += DONE;
  return s.crlf ? out.replaceAll('\n', '\r\n') : out;
}

const makers: [string, () => AnswerEncoder][] = [
  ['messages', () => new MessagesEncoder({ idStem: 'reqp', model: 'fcm', thinking: 'text' })],
  [
    'responses',
    () => new ResponsesEncoder({ idStem: 'reqp', model: 'fcm', createdAt: 1, toolNames: new Map() }),
  ],
];

/** The upstream's bytes, cut into `parts`, through the gate into the encoder. */
const feed = (encoder: AnswerEncoder, parts: Uint8Array[]): string => runStream(encoder, parts);

/** `bytes` cut at the given offsets. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const point of points) {
    parts.push(bytes.subarray(from, point));
    from = point;
  }
  parts.push(bytes.subarray(from));
  return parts;
}

/** Line-end offsets only: how the engine hands lines over. */
function lineEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  bytes.forEach((b, i) => {
    if (b === 0x0a) ends.push(i + 1);
  });
  return ends;
}

for (const [face, make] of makers) {
  test(`${face}: any grouping of the upstream's lines gives the same events`, () => {
    fc.assert(
      fc.property(script, fc.array(fc.nat(), { maxLength: 12 }), (s, picks) => {
        const bytes = new TextEncoder().encode(upstream(s));
        const whole = feed(make(), [bytes]);
        const ends = lineEnds(bytes);
        const grouped = picks.map((p) => ends[p % ends.length] ?? 0);
        assert.equal(feed(make(), cut(bytes, grouped)), whole);
      }),
      { numRuns: 300 },
    );
  });

  test(`${face}: calls that end inside a line (or a character) still give the same events`, () => {
    fc.assert(
      fc.property(script, fc.array(fc.nat(), { maxLength: 20 }), (s, offsets) => {
        const bytes = new TextEncoder().encode(upstream(s));
        assert.equal(feed(make(), cut(bytes, offsets)), feed(make(), [bytes]));
      }),
      { numRuns: 300 },
    );
  });
}

/** What the script says the client must see: reasoning and text joined per kind, each tool's arguments. */
function expected(s: Script): { reasoning: string; text: string; tools: string[] } {
  let reasoning = '';
  let text = '';
  const tools: string[] = [];
  for (const st of s.steps) {
    if (st.kind === 'reasoning') reasoning += st.text;
    else if (st.kind === 'text') text += st.text;
    else tools.push(st.pieces.join(''));
  }
  return { reasoning, text, tools };
}

test('messages: well-formed events carrying exactly the upstream content', () => {
  fc.assert(
    fc.property(script, (s) => {
      const events = parseSse(feed(makers[0]![1](), [new TextEncoder().encode(upstream(s))]));
      assert.equal(events[0]?.event, 'message_start');
      assert.equal(events.at(-1)?.event, 'message_stop');
      assert.equal(events.at(-2)?.event, 'message_delta');
      let open: number | null = null;
      let next = 0;
      const got = { reasoning: '', text: '', tools: [] as string[] };
      for (const e of events.slice(1, -2)) {
        const index = e.data.index as number;
        if (e.event === 'content_block_start') {
          assert.equal(open, null);
          assert.equal(index, next);
          open = index;
          next += 1;
          if ((e.data.content_block as { type: string }).type === 'tool_use') got.tools.push('');
        } else if (e.event === 'content_block_stop') {
          assert.equal(index, open);
          open = null;
        } else {
          assert.equal(e.event, 'content_block_delta');
          assert.equal(index, open);
          const delta = e.data.delta as Record<string, string>;
          if (delta.type === 'thinking_delta') got.reasoning += delta.thinking;
          if (delta.type === 'text_delta') got.text += delta.text;
          if (delta.type === 'input_json_delta') got.tools[got.tools.length - 1] += delta.partial_json ?? '';
        }
      }
      assert.equal(open, null);
      assert.deepEqual(got, expected(s));
    }),
    { numRuns: 300 },
  );
});

test('responses: consecutive sequence numbers, one terminal event, items carrying exactly the upstream content', () => {
  fc.assert(
    fc.property(script, (s) => {
      const events = parseSse(feed(makers[1]![1](), [new TextEncoder().encode(upstream(s))]));
      events.forEach((e, i) => assert.equal(e.data.sequence_number, i));
      const terminal = events.filter(
        (e) => e.event === 'response.completed' || e.event === 'response.incomplete',
      );
      assert.equal(terminal.length, 1);
      assert.equal(terminal[0], events.at(-1));
      const output = (terminal[0]?.data.response as { output: Record<string, unknown>[] }).output;
      const got = { reasoning: '', text: '', tools: [] as string[] };
      for (const item of output) {
        if (item.type === 'reasoning')
          got.reasoning += (item.summary as { text: string }[]).map((p) => p.text).join('');
        if (item.type === 'message')
          got.text += (item.content as { text: string }[]).map((p) => p.text).join('');
        if (item.type === 'function_call') got.tools.push(item.arguments as string);
      }
      assert.deepEqual(got, expected(s));
      const added = events
        .filter((e) => e.event === 'response.output_item.added')
        .map((e) => e.data.output_index);
      assert.deepEqual(
        added,
        output.map((_, i) => i),
      );
    }),
    { numRuns: 300 },
  );
});
