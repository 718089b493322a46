/**
 * Tools on `POST /v1/responses` end to end, with `openai` against the real router over a fake upstream:
 * `allowed_tools` in what the upstream is sent; the name on `response.function_call_arguments.done`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { withScenario } from '../test-support/scenario.js';
import { json, sse } from '../test-support/upstream-behaviours.js';
import { finishFrame, roleFrame, toolCallFrame, usageFrame } from '../test-support/upstream-frames.js';

const GOOD = 'good/coder';
const one = { providers: { good: ['coder'] } };

const client = (url: string): OpenAI => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'any', maxRetries: 0 });

const fn = (name: string): OpenAI.Responses.FunctionTool => ({
  type: 'function',
  name,
  strict: false,
  parameters: { type: 'object', properties: {} },
});

type SentBody = { tools?: { function: { name: string; parameters: unknown } }[]; tool_choice?: unknown };

test('allowed_tools: the upstream is offered only the allowed tools, required or not by its mode', async () => {
  await withScenario(one, async ({ router, upstream }) => {
    upstream.always(GOOD, json('ok'));
    const openai = client(router.url);
    const tools = [fn('read_file'), fn('delete_file'), fn('write_file')];
    const sent = async (
      tool_choice: OpenAI.Responses.ResponseCreateParams['tool_choice'],
    ): Promise<SentBody> => {
      await openai.responses.create({ model: 'fcm', input: 'Read it', tools, tool_choice });
      return upstream.calls.at(-1)?.body as SentBody;
    };
    const allowed = await sent({
      type: 'allowed_tools',
      mode: 'required',
      tools: [
        { type: 'function', name: 'read_file' },
        { type: 'function', name: 'write_file' },
      ],
    });
    assert.deepEqual(
      allowed.tools?.map((tool) => tool.function.name),
      ['read_file', 'write_file'],
    );
    assert.equal(allowed.tool_choice, 'required');
    const auto = await sent({
      type: 'allowed_tools',
      mode: 'auto',
      tools: [{ type: 'function', name: 'read_file' }],
    });
    assert.deepEqual(
      auto.tools?.map((tool) => tool.function.name),
      ['read_file'],
    );
    assert.equal(auto.tool_choice, 'auto');
  });
});

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
