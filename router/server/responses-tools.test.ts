/**
 * Tools on `POST /v1/responses` end to end, with `openai` against the real router over a fake upstream: the
 * name on `response.function_call_arguments.done`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { withScenario } from '../test-support/scenario.js';
import { sse } from '../test-support/upstream-behaviours.js';
import { finishFrame, roleFrame, toolCallFrame, usageFrame } from '../test-support/upstream-frames.js';

const GOOD = 'good/coder';
const one = { providers: { good: ['coder'] } };

const client = (url: string): OpenAI => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'any', maxRetries: 0 });

test('response.function_call_arguments.done carries the name the function_call item does', async () => {
  await withScenario(one, async ({ router, upstream }) => {
    const frames = [
      roleFrame(),
      toolCallFrame(0, '{"path":', { id: 'call_a', name: 'fs__read' }),
      toolCallFrame(0, '"a"}'),
      finishFrame('tool_calls'),
      usageFrame(5, 5),
    ];
    upstream.always(GOOD, sse(frames));
    const tools: OpenAI.Responses.Tool[] = [
      { type: 'namespace', name: 'fs', description: 'Files', tools: [{ type: 'function', name: 'read' }] },
    ];
    const stream = await client(router.url).responses.create({
      model: 'fcm',
      input: 'Read a',
      tools,
      stream: true,
    });
    let done: OpenAI.Responses.ResponseFunctionCallArgumentsDoneEvent | undefined;
    let item: OpenAI.Responses.ResponseOutputItem | undefined;
    for await (const event of stream) {
      if (event.type === 'response.function_call_arguments.done') done = event;
      if (event.type === 'response.output_item.done') item = event.item;
    }
    assert.ok(item?.type === 'function_call');
    assert.equal(item.name, 'read');
    assert.equal(done?.name, 'read');
    assert.equal(done?.arguments, '{"path":"a"}');
  });
});
