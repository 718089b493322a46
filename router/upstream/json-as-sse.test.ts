import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StreamTracker } from '../gate/stream-tracker.js';
import { completionAsSse } from './json-as-sse.js';

/** The router's clock when the completion is replayed. */
const NOW = Date.UTC(2030, 0, 15, 12, 0, 0);

const frames = (sse: string): unknown[] =>
  sse
    .split('\n\n')
    .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
    .map((event) => JSON.parse(event.slice(6)) as unknown);

test('a JSON completion becomes a content chunk, a usage chunk and [DONE]', () => {
  const sse = completionAsSse(
    {
      id: 'c1',
      created: 5,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    },
    NOW,
  );
  assert.ok(sse?.endsWith('data: [DONE]\n\n'));
  assert.deepEqual(frames(sse ?? ''), [
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 5,
      model: 'm',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
    },
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 5,
      model: 'm',
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    },
  ]);
});

test('tool calls get their stream index, and the result passes the stream tracker as content', () => {
  const sse = completionAsSse(
    {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    },
    NOW,
  );
  const [first] = frames(sse ?? '') as {
    choices: { delta: { tool_calls: { index: number; id: string }[] } }[];
  }[];
  assert.equal(first?.choices[0]?.delta.tool_calls[0]?.index, 0);
  assert.equal(first?.choices[0]?.delta.tool_calls[0]?.id, 't');
  const tracker = new StreamTracker({ holdLimitBytes: 65536 });
  assert.equal(tracker.hold(Buffer.from(sse ?? '')).type, 'content');
});

test('a body without choices gives null', () => {
  assert.equal(completionAsSse({ object: 'list' }, NOW), null);
});

test('a completion without `created` is dated by the router’s clock, in seconds', () => {
  const sse = completionAsSse({ choices: [{ message: { content: 'x' } }] }, NOW + 999);
  const [first] = frames(sse ?? '') as { created: number }[];
  assert.equal(first?.created, NOW / 1000);
});
