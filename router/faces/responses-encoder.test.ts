import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponsesEncoder } from './responses-encoder.js';
import { completion, gated } from './test-kit.js';

const toolNames = new Map([
  ['multi_agent_v1__spawn_agent', { namespace: 'multi_agent_v1', name: 'spawn_agent' }],
]);
const encoder = (): ResponsesEncoder =>
  new ResponsesEncoder({ idStem: 'req42', model: 'fcm', createdAt: 1_800_000_000, toolNames });
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
