/**
 * Tools on `POST /v1/responses` end to end, with `openai` against the real router over a fake upstream: a
 * freeform (`custom`) tool offered upstream as a function and called back as a `custom_tool_call`, streamed
 * and not, and the AI SDK's `openai.tools.customTool` run through it; `allowed_tools` and a forced custom tool
 * in what the upstream is sent; the name on `response.function_call_arguments.done`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, type ToolSet } from 'ai';
import { addFilePatch, agentModel } from '../test-support/agent-model.js';
import { withScenario } from '../test-support/scenario.js';
import { jsonBody, sse, type Behaviour } from '../test-support/upstream-behaviours.js';
import {
  completion,
  finishFrame,
  roleFrame,
  toolCallFrame,
  usageFrame,
} from '../test-support/upstream-frames.js';

const GOOD = 'good/coder';
const one = { providers: { good: ['coder'] } };

const client = (url: string): OpenAI => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'any', maxRetries: 0 });

/** Codex's file-editing tool with a GPT-5 model name (its grammar shortened). */
const applyPatch: OpenAI.Responses.CustomTool = {
  type: 'custom',
  name: 'apply_patch',
  description: 'Edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
  format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' },
};

const fn = (name: string): OpenAI.Responses.FunctionTool => ({
  type: 'function',
  name,
  strict: false,
  parameters: { type: 'object', properties: {} },
});

type SentBody = { tools?: { function: { name: string; parameters: unknown } }[]; tool_choice?: unknown };
type Body = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'>;

/** Answers with a call to the tool the request names in its choice, else to its first tool: a forced call is met. */
const callsChosen: Behaviour = (res, call) => {
  const body = call.body as SentBody & { tool_choice?: { function?: { name: string } } };
  const name = body.tool_choice?.function?.name ?? body.tools?.[0]?.function.name ?? 'none';
  const message = {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: '{}' } }],
  };
  const choices = [{ index: 0, message, finish_reason: 'tool_calls' }];
  return jsonBody(completion('', { choices }))(res, call);
};

/** A streamed answer read with `responses.stream`: its event types and the response the SDK put together. */
async function streamed(
  openai: OpenAI,
  body: Body,
): Promise<{ types: string[]; response: OpenAI.Responses.Response }> {
  const stream = openai.responses.stream(body);
  const types: string[] = [];
  for await (const event of stream) types.push(event.type);
  return { types, response: await stream.finalResponse() };
}

test('a custom tool, streamed and not: a function of one string upstream, a custom_tool_call back, its output to the model', async () => {
  await withScenario(one, async ({ router, upstream }) => {
    upstream.always(GOOD, agentModel());
    const openai = client(router.url);
    const patch = addFilePatch('hello.txt', 'hi');
    for (const stream of [true, false]) {
      const input: OpenAI.Responses.ResponseInputItem[] = [
        { role: 'user', content: `write: hello.txt hi\n(${stream ? 'streamed' : 'whole'})` },
      ];
      const body = { model: 'gpt-5.5', input, tools: [applyPatch] };
      const first = stream
        ? await streamed(openai, body)
        : { types: null, response: await openai.responses.create(body) };
      const offered = (upstream.callsTo(GOOD).at(-1)?.body as SentBody).tools?.[0]?.function;
      assert.equal(offered?.name, 'apply_patch');
      assert.deepEqual((offered?.parameters as { required: string[] }).required, ['input']);

      const call = first.response.output[0];
      assert.ok(call?.type === 'custom_tool_call', 'a custom_tool_call item');
      assert.equal(call.name, 'apply_patch');
      assert.equal(call.input, patch);
      assert.match(call.id ?? '', /^ctc_/);
      if (first.types !== null)
        assert.deepEqual(first.types.slice(2), [
          'response.output_item.added',
          'response.custom_tool_call_input.delta',
          'response.custom_tool_call_input.done',
          'response.output_item.done',
          'response.completed',
        ]);

      const output = { type: 'custom_tool_call_output' as const, call_id: call.call_id, output: 'Done!' };
      const second = await openai.responses.create({
        model: 'gpt-5.5',
        input: [...input, call, output],
        tools: [applyPatch],
      });
      assert.equal(second.output_text, 'The command printed: Done!');
      const sent = upstream.callsTo(GOOD).at(-1)?.body?.messages as Record<string, unknown>[];
      assert.deepEqual(sent.slice(-2), [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: call.call_id,
              type: 'function',
              function: { name: 'apply_patch', arguments: JSON.stringify({ input: patch }) },
            },
          ],
        },
        { role: 'tool', tool_call_id: call.call_id, content: 'Done!' },
      ]);
    }
  });
});

test('ai sdk: openai.tools.customTool through the router, streamed and not: its execute gets the raw input', async () => {
  await withScenario(one, async ({ router, upstream }) => {
    upstream.always(GOOD, agentModel());
    const provider = createOpenAI({ baseURL: `${router.url}/v1`, apiKey: 'any' });
    const inputs: string[] = [];
    // `as ToolSet`: @ai-sdk/openai types its tools with its own copy of provider-utils, whose Tool type
    // `ai`'s ToolSet does not take.
    const tools = {
      apply_patch: provider.tools.customTool({
        name: 'apply_patch',
        description: applyPatch.description,
        execute: async (input: string) => {
          inputs.push(input);
          return 'Added fcm-agent-patched';
        },
      }),
    } as unknown as ToolSet;
    const model = provider.responses('fcm');
    const whole = await generateText({
      model,
      prompt: 'write: a.txt whole',
      tools,
      stopWhen: stepCountIs(2),
    });
    assert.equal(whole.text, 'The command printed: fcm-agent-patched');
    const streaming = streamText({ model, prompt: 'write: b.txt streamed', tools, stopWhen: stepCountIs(2) });
    assert.equal(await streaming.text, 'The command printed: fcm-agent-patched');
    assert.deepEqual(inputs, [addFilePatch('a.txt', 'whole'), addFilePatch('b.txt', 'streamed')]);
  });
});

test('allowed_tools: the upstream is offered only the allowed tools, required or not by its mode; a forced custom tool is a forced function', async () => {
  await withScenario(one, async ({ router, upstream }) => {
    upstream.always(GOOD, callsChosen);
    const openai = client(router.url);
    const tools = [fn('read_file'), fn('delete_file'), fn('write_file'), applyPatch];
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
        { type: 'custom', name: 'apply_patch' },
      ],
    });
    assert.deepEqual(
      allowed.tools?.map((tool) => tool.function.name),
      ['read_file', 'apply_patch'],
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
    const forced = await sent({ type: 'custom', name: 'apply_patch' });
    assert.equal(forced.tools?.length, 4);
    assert.deepEqual(forced.tool_choice, { type: 'function', function: { name: 'apply_patch' } });
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
