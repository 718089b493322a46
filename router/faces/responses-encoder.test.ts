import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponsesEncoder } from './responses-encoder.js';
import type { AgentTool } from './responses-tools.js';
import { completion, gated } from './test-kit.js';

const toolNames = new Map<string, AgentTool>([
  ['multi_agent_v1__spawn_agent', { namespace: 'multi_agent_v1', name: 'spawn_agent' }],
  ['apply_patch', { name: 'apply_patch', custom: true }],
  ['ed__patch', { namespace: 'ed', name: 'patch', custom: true }],
]);
const encoder = (summary = true): ResponsesEncoder =>
  new ResponsesEncoder({ idStem: 'req42', model: 'fcm', createdAt: 1_800_000_000, toolNames, summary });
const json = (body: string): Record<string, unknown> =>
  JSON.parse(encoder().json(gated(body))) as Record<string, unknown>;

test('a JSON answer: reasoning, message and function_call items, output_text, usage, status', () => {
  const response = json(
    completion(
      {
        reasoning_content: 'Plan.',
        content: 'Spawning.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'multi_agent_v1__spawn_agent', arguments: '{"task":"x"}' },
          },
          { type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"ls"}' } },
        ],
      },
      'tool_calls',
      {
        prompt_tokens: 30,
        completion_tokens: 12,
        prompt_tokens_details: { cached_tokens: 10 },
        completion_tokens_details: { reasoning_tokens: 4 },
      },
    ),
  );
  assert.deepEqual(response, {
    id: 'resp_req42',
    object: 'response',
    created_at: 1_800_000_000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: 'fcm',
    output: [
      { id: 'rs_req42_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan.' }] },
      {
        id: 'msg_req42_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Spawning.', annotations: [] }],
      },
      {
        id: 'fc_req42_2',
        type: 'function_call',
        status: 'completed',
        arguments: '{"task":"x"}',
        call_id: 'call_1',
        name: 'spawn_agent',
        namespace: 'multi_agent_v1',
      },
      {
        id: 'fc_req42_3',
        type: 'function_call',
        status: 'completed',
        arguments: '{"cmd":"ls"}',
        call_id: 'call_req42_2',
        name: 'exec_command',
      },
    ],
    output_text: 'Spawning.',
    usage: {
      input_tokens: 30,
      input_tokens_details: { cached_tokens: 10 },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 4 },
      total_tokens: 42,
    },
    metadata: {},
  });
});

const call = (name: string, args: string, id = 'call_1'): Record<string, unknown> => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

test('a call of a custom tool is a custom_tool_call item with its input (namespaced: its own name and namespace)', () => {
  const patch = '*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n';
  const response = json(
    completion(
      {
        tool_calls: [
          call('apply_patch', JSON.stringify({ input: patch })),
          call('ed__patch', '{"input":"x"}', 'call_2'),
        ],
      },
      'tool_calls',
    ),
  );
  assert.deepEqual(response.output, [
    {
      id: 'ctc_req42_0',
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_1',
      input: patch,
      name: 'apply_patch',
    },
    {
      id: 'ctc_req42_1',
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_2',
      input: 'x',
      name: 'patch',
      namespace: 'ed',
    },
  ]);
});

test('a custom tool called without a string `input`: its one string, a bare JSON string, or the arguments as they came', () => {
  const inputOf = (args: string): unknown =>
    (
      json(completion({ tool_calls: [call('apply_patch', args)] }, 'tool_calls')).output as {
        input: unknown;
      }[]
    )[0]?.input;
  assert.equal(inputOf('{"patch":"P"}'), 'P');
  assert.equal(inputOf('"P"'), 'P');
  assert.equal(inputOf('*** Begin Patch'), '*** Begin Patch');
  assert.equal(inputOf('{"input":1,"other":"x"}'), '{"input":1,"other":"x"}');
  assert.equal(inputOf('[1]'), '[1]');
  assert.equal(inputOf(''), '');
});

test('a length stop leaves the response incomplete with the reason; no usage is null', () => {
  const response = json(completion({ content: 'cut' }, 'length'));
  assert.equal(response.status, 'incomplete');
  assert.deepEqual(response.incomplete_details, { reason: 'max_output_tokens' });
  assert.equal(response.usage, null);
  assert.equal(json(completion({ content: 'x' }, 'content_filter')).status, 'incomplete');
});

test('errors before any byte are OpenAI error objects', () => {
  const body = encoder().error({
    status: 503,
    code: 'all_models_failed',
    type: 'upstream_error',
    message: 'fcm-router: every model tried failed',
    retryAfterSec: 30,
  });
  assert.deepEqual(JSON.parse(body), {
    error: {
      message: 'fcm-router: every model tried failed',
      type: 'upstream_error',
      code: 'all_models_failed',
      param: null,
    },
  });
});

test('a refusal keeps the field at fault in `param`', () => {
  const body = encoder().error({
    status: 400,
    code: 'invalid_request',
    type: 'invalid_request_error',
    message: 'fcm-router: previous_response_id is not supported',
    retryAfterSec: null,
    param: 'previous_response_id',
  });
  assert.equal((JSON.parse(body) as { error: { param: unknown } }).error.param, 'previous_response_id');
});

test('a JSON answer to a request that asked no reasoning summary: its reasoning item has an empty summary', () => {
  const quiet = encoder(false);
  const body = completion({ role: 'assistant', reasoning_content: 'Private plan.', content: 'Done.' });
  const out = quiet.json(gated(body));
  assert.doesNotMatch(out, /Private plan/);
  const response = JSON.parse(out) as { output: unknown[]; output_text: string };
  assert.deepEqual(response.output[0], { id: 'rs_req42_0', type: 'reasoning', summary: [] });
  assert.equal(response.output_text, 'Done.');
});
