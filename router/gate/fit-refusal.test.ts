import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyFailure } from './failure-classifier.js';
import { fitRefusal } from './fit-refusal.js';

const ROWS: [number, string, ReturnType<typeof fitRefusal>][] = [
  [
    400,
    `{"error":{"message":"This model's maximum context length is 8192 tokens. However, you requested 15321 tokens.","code":"context_length_exceeded"}}`,
    { kind: 'context_length', statedLimit: 8192 },
  ],
  [
    413,
    `{"error":{"message":"Request too large for model \`llama-3.1-8b-instant\` in organization \`org_x\` service tier \`on_demand\` on tokens per minute (TPM): Limit 6000, Requested 15234, please reduce your message size and try again.","type":"tokens","code":"rate_limit_exceeded"}}`,
    { kind: 'over_tpm', statedLimit: 6000 },
  ],
  [
    429,
    'Request too large for gpt-4 on tokens per min (TPM): Limit 30000, Requested 36000.',
    { kind: 'over_tpm', statedLimit: 30000 },
  ],
  [
    400,
    '{"error":"prompt is too long: 210000 tokens > 200000 maximum"}',
    { kind: 'context_length', statedLimit: 200000 },
  ],
  [
    400,
    "The input (345516 tokens) is longer than the model's context length",
    { kind: 'context_length', statedLimit: null },
  ],
  [400, '{"error":{"message":"tools is not supported"}}', { kind: 'no_tool_support', statedLimit: null }],
  [400, 'this model does not support tools', { kind: 'no_tool_support', statedLimit: null }],
  [400, '{"error":"model does not support images"}', { kind: 'no_image_support', statedLimit: null }],
  [400, 'Image input is not supported for this model', { kind: 'no_image_support', statedLimit: null }],
  [
    400,
    '[{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]',
    { kind: 'context_length', statedLimit: 1048576 },
  ],
  [
    400,
    '{"error":{"code":"1261","message":"Prompt exceeds max length"}}',
    { kind: 'context_length', statedLimit: null },
  ],
  [
    413,
    '{"error":{"code":"tokens_limit_reached","message":"Request body too large for gpt-4o model. Max size: 8000 tokens."}}',
    { kind: 'context_length', statedLimit: 8000 },
  ],
  [
    404,
    '{"error":{"message":"No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing","code":404}}',
    { kind: 'no_tool_support', statedLimit: null },
  ],
  [
    404,
    '{"error":{"message":"No endpoints found that support image input","code":404}}',
    { kind: 'no_image_support', statedLimit: null },
  ],
  // Other refusals say nothing about fit.
  [404, '{"error":{"message":"No endpoints found for m-a:free.","code":404}}', null],
  [404, 'context length exceeded', null],
  [400, '{"error":"max_tokens must be at most 8192"}', null],
  [413, '', null],
  [429, 'Rate limit reached for requests per minute', null],
  [500, 'context length exceeded', null],
];

test('refusals that say a request does not fit, read from status and words', () => {
  for (const [status, body, expected] of ROWS) assert.deepEqual(fitRefusal(status, body), expected, body);
});

test('a fit refusal blames the request: no health damage, no pause, failover to the next model', () => {
  const bodySnippet = 'Request too large for model on tokens per minute (TPM): Limit 6000, Requested 9000';
  const classified = classifyFailure({ type: 'http', status: 413, retryAfter: null, bodySnippet }, 0);
  assert.deepEqual(classified, {
    kind: 'over_tpm',
    blame: 'client',
    failover: true,
    healthDamage: false,
    clientStatus: 400,
    pause: null,
    blockProviderAuth: false,
    keyFault: false,
    lesson: { type: 'ceiling', ceiling: 'tpm' },
    outputLengthSuspect: false,
    statedLimit: 6000,
  });
});
