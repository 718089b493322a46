import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunk, DONE, toolPiece } from '../../faces/test-kit.js';
import type { StreamPart, UpstreamFrame } from '../../gate/stream-part.js';
import type { ShapingRules } from './shaping-rules.js';
import { StreamShaper } from './stream-shaper.js';
import { ThoughtSignatures } from '../../upstream/thought-signatures.js';
import { MAX_HELD_FRAMES, THOUGHTS_ALONE as THOUGHTS_ALONE_WORDS } from './ending-hold.js';
import { answerSoFar as soFar } from '../../test-support/continuing-model.js';

const rules = (over: Partial<ShapingRules> = {}): ShapingRules => ({
  tools: new Set(['Bash']),
  forced: null,
  continuing: null,
  holdLimit: 4096,
  mintId: () => 'minted',
  signatures: null,
  ...over,
});
const bytes = (text: string): Buffer => Buffer.from(text);
/** What a shaper in bytes mode let go, as text. */
function text(out: StreamPart | null): string {
  if (out === null) return '';
  assert.ok(out instanceof Uint8Array, 'bytes in, bytes out');
  return Buffer.from(out).toString('utf8');
}
/** The texts of the deltas in shaped output, as bytes or as frames. */
function contents(out: StreamPart | null): unknown[] {
  if (out === null) return [];
  const shaped = out instanceof Uint8Array ? frames(text(out)) : out.frames;
  return shaped.flatMap((frame) =>
    typeof frame === 'object' && frame !== null
      ? [(frame as { choices: { delta: { content?: unknown } }[] }).choices[0]?.delta.content]
      : [],
  );
}
/** The data payloads of shaped output. */
const frames = (out: string): unknown[] =>
  out
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => (line === 'data: [DONE]' ? '[DONE]' : (JSON.parse(line.slice(6)) as unknown)));
const deltas = (out: string): Record<string, unknown>[] =>
  frames(out).flatMap((f) =>
    typeof f === 'object' && f !== null
      ? [(f as { choices: { delta: Record<string, unknown> }[] }).choices[0]?.delta ?? {}]
      : [],
  );

test('nothing to hold or trim: the lines leave as the very bytes that came', () => {
  const shaper = new StreamShaper(rules({ tools: null }), 'bytes');
  const input = bytes(chunk({ content: 'hi' }));
  assert.equal(shaper.shape(input).out, input);
});

test('with tools checked, lines without tool calls leave as they came; before content they wait for it', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  const role = bytes(chunk({ role: 'assistant' }));
  const first = bytes(chunk({ content: 'Hel' }));
  assert.deepEqual(shaper.shape(role), { out: null, read: null, problem: null });
  assert.equal(text(shaper.shape(first).out), role.toString() + first.toString());
  const later = bytes(chunk({ content: 'lo' }));
  assert.equal(shaper.shape(later).out, later, 'after content: no parsing, no copy');
});

test('lines the shaper read go out with their frames, and the usage in them is handed back once', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  const role = bytes(chunk({ role: 'assistant' }));
  const first = bytes(chunk({ content: 'Hel' }));
  shaper.shape(role);
  const shaped = shaper.shape(first);
  assert.equal(shaped.read?.bytes, role.byteLength + first.byteLength, 'all of what waited was read');
  assert.deepEqual(shaped.read?.frames, frames(role.toString() + first.toString()));
  const usage = { prompt_tokens: 4, completion_tokens: 2 };
  const last = bytes(`data: ${JSON.stringify({ choices: [], usage })}\n\n${DONE}`);
  // A line that may hold a tool call is read: its usage is noted for the gate.
  const call = bytes(chunk({ tool_calls: [toolPiece(0, 'c', 'Bash', '{}')] }));
  shaper.shape(call);
  assert.equal(shaper.takeUsage(), null);
  shaper.shape(last);
  assert.deepEqual(shaper.takeUsage(), { promptTokens: 4, completionTokens: 2 });
  assert.equal(shaper.takeUsage(), null, 'handed back once');
});

test('the frames the gate read go out with the lines they came from, read no more', () => {
  const shaper = new StreamShaper(rules({ tools: null }), 'bytes');
  const input = bytes(chunk({ content: 'hi' }) + chunk({ content: ' there' }));
  const known = { frames: frames(chunk({ content: 'hi' })) as UpstreamFrame[], bytes: 10 };
  shaper.readAlready(known);
  assert.deepEqual(shaper.shape(input), { out: input, read: known, problem: null });
  assert.equal(shaper.shape(input).read, null, 'only the first bytes handed on');
});

test('a tool call streamed in pieces goes out in one piece when the stream moves on', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  assert.equal(
    shaper.shape(bytes(chunk({ tool_calls: [toolPiece(0, 'call_1', 'Bash', '{"comm')] }))).out,
    null,
  );
  assert.equal(
    shaper.shape(bytes(chunk({ tool_calls: [toolPiece(0, null, null, 'and":"ls"}')] }))).out,
    null,
  );
  const out = text(shaper.shape(bytes(chunk({}, 'tool_calls') + DONE)).out);
  assert.deepEqual(deltas(out)[0], {
    tool_calls: [
      { index: 0, id: 'call_1', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
    ],
  });
  assert.equal(frames(out).at(-1), '[DONE]');
});

test("a whole call goes out with the provider's additions to it, and its thought signature is remembered", () => {
  const signatures = new ThoughtSignatures();
  const shaper = new StreamShaper(rules({ signatures }), 'bytes');
  const extra = { google: { thought_signature: 'CrICAdHt' } };
  const piece = { ...toolPiece(0, 'function-call-1', 'Bash', '{"command":"ls"}'), extra_content: extra };
  assert.equal(shaper.shape(bytes(chunk({ tool_calls: [piece] }))).out, null);
  const out = text(shaper.shape(bytes(chunk({}, 'tool_calls') + DONE)).out);
  const call = { name: 'Bash', arguments: '{"command":"ls"}' };
  assert.deepEqual(deltas(out)[0], {
    tool_calls: [{ index: 0, id: 'function-call-1', type: 'function', function: call, extra_content: extra }],
  });
  assert.equal(signatures.of('function-call-1'), 'CrICAdHt');
});

test('an unusable tool call stops the stream with what is wrong; nothing of it went out', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ tool_calls: [toolPiece(0, 'c', 'Bash', '{"command": <|end|>')] })));
  assert.deepEqual(shaper.shape(bytes(chunk({}, 'tool_calls'))), {
    out: null,
    read: null,
    problem: { kind: 'invalid_tool_call', detail: 'tool call arguments are not JSON' },
  });
});

test('a held call is let go (or refused) when the answer is over, and kept at its last line', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ content: 'Ok. ' })));
  shaper.shape(bytes(chunk({ tool_calls: [toolPiece(0, 'c', 'Bash', '{}')] })));
  // The upstream's last line is read; whether the answer is over (or was cut) is the relay's to say.
  assert.equal(shaper.lastLine().out, null);
  assert.equal(deltas(text(shaper.end().out)).length, 1);
});

test('a last line without its end waits for the end and leaves as it came', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  const line = chunk({ content: 'tail' }).trimEnd();
  assert.equal(shaper.shape(bytes(line)).out, null);
  assert.equal(text(shaper.lastLine().out), line);
});

test('a continuation whose restated start is cut before it passes the answer so far sends nothing of it', () => {
  const shaper = new StreamShaper(rules({ continuing: soFar({ text: 'The quick brown fox' }) }), 'bytes');
  assert.equal(shaper.shape(bytes(chunk({ content: 'quick br' }))).out, null);
  assert.equal(shaper.lastLine().out, null, 'held at the last line: it may still be a repeat');
  // Only an answer that is over lets the held start go (trimmed as far as it repeats).
  assert.notEqual(shaper.end().out, null);
});

test('a continuation: its role frame and reasoning are dropped, its restated start trimmed', () => {
  const shaper = new StreamShaper(rules({ continuing: soFar({ text: 'The quick brown fo' }) }), 'bytes');
  assert.equal(shaper.shape(bytes(chunk({ role: 'assistant', content: '' }))).out, null);
  assert.equal(shaper.shape(bytes(chunk({ reasoning_content: 'I will go on.' }))).out, null);
  assert.equal(shaper.shape(bytes(chunk({ content: 'brown f' }))).out, null);
  const out = text(shaper.shape(bytes(chunk({ content: 'ox jumps' }) + chunk({}, 'stop') + DONE)).out);
  assert.deepEqual(deltas(out), [{ content: 'x jumps' }, {}]);
  assert.equal(frames(out).at(-1), '[DONE]');
});

test('a continuation of thoughts trims the restated thoughts and lets its text through', () => {
  const shaper = new StreamShaper(rules({ continuing: soFar({ reasoning: 'Let me think about' }) }), 'bytes');
  const out = text(
    shaper.shape(bytes(chunk({ reasoning_content: 'think about it.' }) + chunk({ content: 'Hi' }))).out,
  );
  assert.deepEqual(deltas(out), [{ reasoning_content: ' it.' }, { content: 'Hi' }]);
});

/** A chunk's frames, as the gate hands them to a translating face's shaper. */
const batch = (...texts: string[]): { frames: UpstreamFrame[]; bytes: number } => ({
  frames: frames(texts.join('')) as UpstreamFrame[],
  bytes: texts.join('').length,
});

test('frames: with nothing held, the gate’s batch leaves as it came (the same objects)', () => {
  const shaper = new StreamShaper(rules(), 'frames');
  const first = batch(chunk({ content: 'Hel' }));
  assert.equal(shaper.shape(first).out, first);
  const later = batch(chunk({ content: 'lo' }));
  assert.equal(shaper.shape(later).out, later);
});

test('frames: a tool call streamed in pieces goes out whole, as frames, with nothing written as bytes', () => {
  const shaper = new StreamShaper(rules(), 'frames');
  assert.equal(
    shaper.shape(batch(chunk({ tool_calls: [toolPiece(0, 'call_1', 'Bash', '{"comm')] }))).out,
    null,
  );
  assert.equal(
    shaper.shape(batch(chunk({ tool_calls: [toolPiece(0, null, null, 'and":"ls"}')] }))).out,
    null,
  );
  const out = shaper.shape(batch(chunk({}, 'tool_calls'), DONE)).out;
  assert.ok(out !== null && !(out instanceof Uint8Array), 'frames in, frames out');
  const [call, finish, done] = out.frames as [
    Record<string, unknown>,
    Record<string, unknown>,
    UpstreamFrame,
  ];
  assert.deepEqual((call.choices as { delta: unknown }[])[0]?.delta, {
    tool_calls: [
      { index: 0, id: 'call_1', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
    ],
  });
  assert.equal((finish.choices as { finish_reason: unknown }[])[0]?.finish_reason, 'tool_calls');
  assert.equal(done, '[DONE]');
});

test('frames: a continuation’s restated start is trimmed in the frames themselves', () => {
  const shaper = new StreamShaper(rules({ continuing: soFar({ text: 'The quick brown fo' }) }), 'frames');
  assert.equal(shaper.shape(batch(chunk({ role: 'assistant', content: '' }))).out, null);
  assert.equal(shaper.shape(batch(chunk({ content: 'brown f' }))).out, null);
  const out = shaper.shape(batch(chunk({ content: 'ox jumps' }), chunk({}, 'stop'), DONE)).out;
  assert.ok(out !== null && !(out instanceof Uint8Array), 'frames in, frames out');
  assert.deepEqual(
    out.frames.map((f) => (f === '[DONE]' ? f : (f.choices as { delta: unknown }[])[0]?.delta)),
    [{ content: 'x jumps' }, {}, '[DONE]'],
  );
});

/** The finish reasons in shaped output. */
const finishes = (out: string): unknown[] =>
  frames(out).flatMap((f) =>
    typeof f === 'object' && f !== null
      ? [(f as { choices: { finish_reason?: unknown }[] }).choices[0]?.finish_reason]
      : [],
  );

test('finish reason tool_calls with no tool call sent is the end of a text answer: stop', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ content: 'All done.' })));
  assert.deepEqual(finishes(text(shaper.shape(bytes(chunk({}, 'tool_calls') + DONE)).out)), ['stop']);
  const withCall = new StreamShaper(rules(), 'bytes');
  withCall.shape(bytes(chunk({ tool_calls: [toolPiece(0, 'c', 'Bash', '{}')] })));
  const out = text(withCall.shape(bytes(chunk({}, 'tool_calls') + DONE)).out);
  assert.deepEqual(finishes(out), [null, 'tool_calls'], 'the call, then its finish reason as it came');
});

test('finish reason stop after tool calls went out is a turn of calls: tool_calls (function_call if legacy)', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ tool_calls: [toolPiece(0, 'c', 'Bash', '{"command":')] })));
  const out = text(
    shaper.shape(bytes(chunk({ tool_calls: [toolPiece(0, null, null, '"ls"}')] }, 'stop'))).out,
  );
  assert.deepEqual(finishes(out), [null, 'tool_calls']);
  const legacy = new StreamShaper(rules(), 'bytes');
  const call = chunk({ function_call: { name: 'Bash', arguments: '{}' } });
  assert.deepEqual(finishes(text(legacy.shape(bytes(call + chunk({}, 'stop'))).out)), [
    null,
    'function_call',
  ]);
  const plain = new StreamShaper(rules(), 'bytes');
  plain.shape(bytes(chunk({ content: 'All done.' })));
  assert.deepEqual(
    finishes(text(plain.shape(bytes(chunk({}, 'stop'))).out)),
    ['stop'],
    'a text answer keeps it',
  );
});

test('arguments streamed as a JSON object are that JSON; any other value is an unusable call, never empty', () => {
  const call = (args: unknown): string =>
    chunk({
      tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'Bash', arguments: args } }],
    });
  const shaper = new StreamShaper(rules(), 'bytes');
  const out = text(shaper.shape(bytes(call({ command: 'ls' }) + chunk({}, 'tool_calls'))).out);
  const [sent] = deltas(out) as { tool_calls?: { function: { arguments: string } }[] }[];
  assert.equal(sent?.tool_calls?.[0]?.function.arguments, '{"command":"ls"}');
  for (const args of [42, ['ls']]) {
    const refused = new StreamShaper(rules(), 'bytes').shape(bytes(call(args) + chunk({}, 'tool_calls')));
    assert.deepEqual(refused.problem, {
      kind: 'invalid_tool_call',
      detail: 'tool call arguments are not a JSON object',
    });
  }
});

/** A usage-only chunk, as OpenAI sends after the finish reason. */
/** The finish reasons the client gets as the upstream's stream ends (`stop`, then `[DONE]`). */
const finishesAtEnd = (shaper: StreamShaper): unknown[] =>
  finishes(text(shaper.shape(bytes(chunk({}, 'stop') + DONE)).out));

/** The problem a stream ending on `stop` and `[DONE]` leaves, if any. */
function problemAtEnd(shaper: StreamShaper): string | undefined {
  shaper.shape(bytes(chunk({}, 'stop') + DONE));
  return shaper.end().problem?.kind;
}

const usageChunk = `data: ${JSON.stringify({ id: 'chatcmpl-1', choices: [], usage: { completion_tokens: 9 } })}\n\n`;
const THOUGHTS_ALONE = { kind: 'empty_content', detail: THOUGHTS_ALONE_WORDS };

test('an answer that ends on reasoning alone: its ending is kept back, and it fails at the end', () => {
  for (const reading of ['bytes', 'frames'] as const) {
    const shaper = new StreamShaper(rules(), reading);
    const part = (...texts: string[]): StreamPart =>
      reading === 'bytes' ? bytes(texts.join('')) : batch(...texts);
    assert.notEqual(shaper.shape(part(chunk({ reasoning_content: 'Let me think.' }))).out, null, reading);
    assert.equal(shaper.endingHeld, false);
    const ending = shaper.shape(part(chunk({}, 'stop'), usageChunk, DONE)).out;
    assert.ok(
      ending === null || (ending instanceof Uint8Array ? ending.byteLength : ending.frames.length) === 0,
    );
    assert.equal(shaper.endingHeld, true, reading);
    assert.equal(shaper.lastLine().problem, null);
    assert.deepEqual(shaper.end(), { out: null, read: null, problem: THOUGHTS_ALONE }, reading);
  }
});

test('reasoning cut at its output limit ends as it came: the kept ending goes, in its order', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ reasoning_content: 'Let me' })));
  assert.equal(text(shaper.shape(bytes(chunk({}, 'length') + usageChunk + DONE)).out), '');
  const out = text(shaper.end().out);
  assert.deepEqual(
    finishes(out),
    ['length', undefined],
    'the finish reason, then the usage chunk (no choice)',
  );
  assert.equal(frames(out).at(-1), '[DONE]');
});

test('words after a kept ending let it go first: nothing is reordered, nothing fails', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ reasoning_content: 'Hmm.' })));
  shaper.shape(bytes(chunk({}, 'stop')));
  const out = text(shaper.shape(bytes(chunk({ content: 'Late words.' }) + DONE)).out);
  assert.deepEqual(deltas(out), [{}, { content: 'Late words.' }]);
  assert.equal(frames(out).at(-1), '[DONE]');
  assert.equal(shaper.endingHeld, false);
  assert.deepEqual(shaper.end(), { out: null, read: null, problem: null });
});

test('an answer that said something, or called a tool, ends as it comes', () => {
  const spoke = new StreamShaper(rules(), 'bytes');
  spoke.shape(bytes(chunk({ reasoning_content: 'Plan.' }) + chunk({ content: 'Done.' })));
  assert.deepEqual(finishesAtEnd(spoke), ['stop']);
  const called = new StreamShaper(rules(), 'bytes');
  called.shape(bytes(chunk({ reasoning_content: 'Plan.' })));
  called.shape(bytes(chunk({ tool_calls: [toolPiece(0, 'c', 'Bash', '{}')] })));
  const out = text(called.shape(bytes(chunk({}, 'tool_calls') + DONE)).out);
  assert.deepEqual(finishes(out), [null, 'tool_calls']);
  assert.equal(called.endingHeld, false);
  // Whitespace is not words: its ending waits as reasoning's does.
  const blank = new StreamShaper(rules(), 'bytes');
  blank.shape(bytes(chunk({ reasoning_content: 'Plan.' }) + chunk({ content: '\n\n' })));
  assert.equal(problemAtEnd(blank), 'empty_content');
});

test('unchecked answers (several choices, or validation below strict) end on reasoning as they come', () => {
  const shaper = new StreamShaper(rules({ tools: null }), 'bytes');
  shaper.shape(bytes(chunk({ reasoning_content: 'Hmm.' })));
  assert.deepEqual(finishesAtEnd(shaper), ['stop']);
});

test('a continuation keeps back the ending only while the whole answer is still thoughts', () => {
  const stillThoughts: [ReturnType<typeof soFar>, Record<string, unknown>][] = [
    [soFar({ reasoning: 'Let me think' }), { reasoning_content: 'Let me think more.' }],
    // A think block alone is thoughts too.
    [soFar({ text: '<think>Hmm.</think>' }), { content: '<think>More.</think>' }],
  ];
  for (const [continuing, delta] of stillThoughts) {
    const thoughts = new StreamShaper(rules({ continuing }), 'bytes');
    thoughts.shape(bytes(chunk(delta)));
    assert.equal(problemAtEnd(thoughts), 'empty_content', JSON.stringify(delta));
  }
  const words = new StreamShaper(rules({ continuing: soFar({ text: 'The answer is' }) }), 'bytes');
  words.shape(bytes(chunk({ content: 'The answer is 42.' })));
  assert.deepEqual(finishesAtEnd(words), ['stop']);
});

test('a stream that goes on past its ending is let go unjudged after the most kept', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ reasoning_content: 'Hmm.' })));
  shaper.shape(bytes(chunk({}, 'stop')));
  let sent = '';
  for (let i = 0; i < MAX_HELD_FRAMES; i += 1)
    sent += text(shaper.shape(bytes(chunk({ reasoning_content: '.' }))).out);
  assert.equal(frames(sent).length, MAX_HELD_FRAMES + 1, 'the ending and all after it, in order');
  assert.deepEqual(finishes(sent).slice(0, 2), ['stop', null]);
  assert.equal(shaper.endingHeld, false);
  assert.equal(shaper.end().problem, null);
});

test('a think block opening the text is not the answer saying something: its ending waits; the text goes as it came', () => {
  for (const reading of ['bytes', 'frames'] as const) {
    const shaper = new StreamShaper(rules(), reading);
    const part = (...texts: string[]): StreamPart =>
      reading === 'bytes' ? bytes(texts.join('')) : batch(...texts);
    // Whether a think block or a tool call written as text opens the answer, the next piece tells.
    assert.equal(shaper.shape(part(chunk({ role: 'assistant', content: '<th' }))).out, null, reading);
    const thoughts = part(chunk({ content: 'ink>Let me' }), chunk({ content: ' see.' }));
    // The role frame that waited goes first, its `<th` in the next piece's text.
    assert.deepEqual(contents(shaper.shape(thoughts).out), [undefined, '<think>Let me', ' see.']);
    const same = part(chunk({ content: ' More.' }));
    assert.equal(shaper.shape(same).out, same, 'inside the block, the very frames that came');
    shaper.shape(part(chunk({ content: '</think>\n\n' })));
    assert.equal(shaper.endingHeld, false);
    shaper.shape(part(chunk({}, 'stop'), DONE));
    assert.equal(shaper.endingHeld, true, reading);
    assert.equal(shaper.end().problem?.kind, 'empty_content', reading);
  }
});

test('words after a think block let its ending go as it comes', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ content: '<think>Plan.</think>' })));
  shaper.shape(bytes(chunk({ content: '\n\nRun' })));
  const ending = bytes(chunk({}, 'stop') + DONE);
  assert.equal(shaper.shape(ending).out, ending);
  assert.equal(shaper.endingHeld, false);
  // A tag's start that never became one was words: it goes before the ending.
  const half = new StreamShaper(rules(), 'bytes');
  half.shape(bytes(chunk({ content: '<thi' })));
  const last = text(half.shape(bytes(chunk({}, 'stop') + DONE)).out);
  assert.deepEqual(
    deltas(last).map((delta) => delta.content ?? null),
    ['<thi', null],
  );
  assert.deepEqual(finishes(last), [null, 'stop']);
  assert.equal(half.endingHeld, false);
});

test('text that does not open with a think block is words, tags and all', () => {
  const shaper = new StreamShaper(rules(), 'bytes');
  shaper.shape(bytes(chunk({ content: 'Use <think>' })));
  assert.deepEqual(finishesAtEnd(shaper), ['stop']);
});
