import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frameHasUsefulContent } from '../gate/answer-rules.js';
import { completionFrames } from './json-as-sse.js';

/** The router's clock when the completion is replayed. */
const NOW = Date.UTC(2030, 0, 15, 12, 0, 0);

test('a JSON completion becomes a content chunk, a usage chunk and [DONE]', () => {
  const frames = completionFrames(
    {
      id: 'c1',
      created: 5,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    },
    NOW,
  );
  assert.deepEqual(frames, [
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
    '[DONE]',
  ]);
});

test('tool calls get their stream index, and the result is content by the stream’s rule', () => {
  const frames = completionFrames(
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
  const [first] = (frames ?? []) as {
    choices: { delta: { tool_calls: { index: number; id: string }[] } }[];
  }[];
  assert.equal(first?.choices[0]?.delta.tool_calls[0]?.index, 0);
  assert.equal(first?.choices[0]?.delta.tool_calls[0]?.id, 't');
  assert.ok(frameHasUsefulContent(frames?.[0] ?? '[DONE]'));
});

test('a body without choices gives null', () => {
  assert.equal(completionFrames({ object: 'list' }, NOW), null);
});

test('a completion without `created` is dated by the router’s clock, in seconds', () => {
  const frames = completionFrames({ choices: [{ message: { content: 'x' } }] }, NOW + 999);
  const [first] = (frames ?? []) as { created: number }[];
  assert.equal(first?.created, NOW / 1000);
});
