import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sseLines, type UpstreamFrame } from '../../gate/stream-part.js';
import { SentLines, closingFrames, type AnswerSoFar } from './answer-so-far.js';
import { breakPlan, type BreakFacts } from './continuation.js';
import { answerSoFar } from '../../test-support/continuing-model.js';

const soFar = (over: Partial<AnswerSoFar> = {}): AnswerSoFar => answerSoFar({ text: 'Hel', ...over });
const facts = (over: Partial<BreakFacts> = {}): BreakFacts => ({
  enabled: true,
  clientGone: false,
  toolsChecked: true,
  continuable: true,
  soFar: soFar(),
  ...over,
});

test('breakPlan: continue, close as it stands, or give up', () => {
  const rows: [Partial<BreakFacts>, string][] = [
    [{}, 'continue'],
    [{ soFar: soFar({ text: '', reasoning: 'thinking' }) }, 'continue'],
    [{ enabled: false }, 'give_up'],
    [{ clientGone: true }, 'give_up'],
    [{ soFar: soFar({ toolCalls: 1 }) }, 'close'],
    [{ soFar: soFar({ toolCalls: 1 }), toolsChecked: false }, 'give_up'],
    [{ soFar: soFar({ finished: true }) }, 'close'],
    [{ soFar: soFar({ finished: true }), enabled: false }, 'give_up'],
    [{ soFar: soFar({ tooLong: true }) }, 'give_up'],
    [{ continuable: false }, 'give_up'],
  ];
  for (const [over, plan] of rows) assert.equal(breakPlan(facts(over)), plan, JSON.stringify(over));
});

test('closingFrames: the missing finish reason and [DONE] (as a byte relay writes them, too)', () => {
  assert.equal(
    sseLines(closingFrames(soFar({ toolCalls: 2 }))),
    'data: {"id":"chatcmpl-1","created":0,"model":"m","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n',
  );
  assert.deepEqual(closingFrames(soFar({ finished: true })), ['[DONE]']);
  assert.deepEqual(closingFrames(soFar({ finished: true, done: true })), []);
});

test('SentLines: what the client was sent, read when asked', () => {
  const sent = new SentLines();
  const line = (delta: object, finish: string | null = null): Uint8Array =>
    Buffer.from(
      `data: ${JSON.stringify({ id: 'x1', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  sent.add(line({ role: 'assistant', reasoning_content: 'Hm. ' }));
  sent.add(line({ content: 'Hello ' }));
  sent.add(line({ content: 'wor' }));
  const read = sent.read();
  assert.deepEqual(
    [read.text, read.reasoning, read.toolCalls, read.finished],
    ['Hello wor', 'Hm. ', 0, false],
  );
  assert.equal(read.base.id, 'x1');
  sent.add(
    line({ tool_calls: [{ index: 0, id: 'c', function: { name: 'Bash', arguments: '{}' } }] }, 'tool_calls'),
  );
  sent.add(Buffer.from('data: [DONE]\n\n'));
  const after = sent.read();
  assert.deepEqual([after.toolCalls, after.finished, after.done], [1, true, true]);
});

test('SentLines: frames the gate parsed are read as they are, beside lines', () => {
  const sent = new SentLines();
  const frame = (delta: object, finish: string | null = null): UpstreamFrame => ({
    id: 'x2',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  sent.add({
    frames: [frame({ role: 'assistant', content: 'Hi ' }), frame({ content: 'there' })],
    bytes: 120,
  });
  sent.add({ frames: [frame({}, 'stop'), '[DONE]'], bytes: 80 });
  const read = sent.read();
  assert.deepEqual([read.text, read.finished, read.done, read.base.id], ['Hi there', true, true, 'x2']);
});

test('SentLines: frames are read as they go, none kept, and the base follows the latest that changes it', () => {
  const sent = new SentLines();
  const first: UpstreamFrame = {
    id: 'x3',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content: 'A' } }],
  };
  sent.add({ frames: [first], bytes: 60 });
  // The frame object is the gate's; what was read of it stays as it was sent.
  first.choices = [{ index: 0, delta: { content: 'changed' } }];
  sent.add({
    frames: [{ id: 'x3', created: 2, model: 'm', choices: [{ index: 0, delta: { content: 'B' } }] }],
    bytes: 60,
  });
  const read = sent.read();
  assert.deepEqual([read.text, read.base], ['AB', { id: 'x3', created: 2, model: 'm' }]);
});

test('SentLines.hasEnding: a last [DONE] line is seen without a parse; otherwise the lines say', () => {
  const content = (finish: string | null = null): Uint8Array =>
    Buffer.from(
      `data: ${JSON.stringify({ id: 'x3', choices: [{ index: 0, delta: { content: 'a' }, finish_reason: finish }] })}\n\n`,
    );
  const ends = (...parts: (Uint8Array | string)[]): boolean => {
    const sent = new SentLines();
    for (const part of parts) sent.add(typeof part === 'string' ? Buffer.from(part) : part);
    return sent.hasEnding();
  };
  assert.equal(ends(), false, 'nothing sent');
  assert.equal(ends(content()), false, 'content alone: cut');
  assert.equal(ends(content(), 'data: [DONE]\n\n'), true);
  assert.equal(
    ends(content(), 'data: [DONE]', '\r\n\r\n'),
    true,
    'a part of line ends alone changes nothing',
  );
  assert.equal(ends(content(), 'data: [DONE]\n\n', content()), true, '[DONE] went out, read from the lines');
  assert.equal(ends(content('stop')), true, 'a finish reason, read from the lines');
  assert.equal(ends(content('length'), content()), true, 'once finished, the answer was over');
  const frames = new SentLines();
  frames.add({
    frames: [JSON.parse(Buffer.from(content()).toString().slice(6)) as UpstreamFrame],
    bytes: 60,
  });
  assert.equal(frames.hasEnding(), false);
  frames.add({ frames: ['[DONE]'], bytes: 14 });
  assert.equal(frames.hasEnding(), true);
});
