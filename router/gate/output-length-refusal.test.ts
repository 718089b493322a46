import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outputLengthMayCause } from './output-length-refusal.js';

const error = (message: string, param: string | null = null): string =>
  JSON.stringify({ error: { message, type: 'invalid_request_error', param, code: null } });

test('refusals that speak of the output length, in the words providers use, may be about it', () => {
  const refusals = [
    error('max_tokens is too large: 32000. This model supports at most 8192 completion tokens', 'max_tokens'),
    error('`max_tokens` must be less than or equal to `8192`, the maximum value for `max_tokens`'),
    error('max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for this model'),
    error('max_completion_tokens must be at most 8192'),
    error("Invalid value at 'generation_config.max_output_tokens' (TYPE_INT32)"),
    '{"detail":[{"loc":["body","maxTokens"],"msg":"Input should be less than or equal to 8192"}]}',
    error('Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8193'),
    error('Requested output length exceeds what this model can write'),
  ];
  for (const text of refusals) assert.equal(outputLengthMayCause(text), true, text);
});

test('a refusal that names no cause at all may still be about it', () => {
  for (const text of [
    '',
    'Bad Request',
    error('Bad Request'),
    '<html><body>400 Bad Request</body></html>',
    '{}',
  ]) {
    assert.equal(outputLengthMayCause(text), true, text);
  }
});

test('a refusal that names another cause and no tokens is not about the output length', () => {
  const refusals = [
    error("Unsupported parameter: 'tools'"),
    error("Invalid value for 'tool_choice': 'required' is not supported with this model.", 'tool_choice'),
    error('Tool call id was call_1234567890 but must be a-z, A-Z, 0-9, with a length of 9.'),
    error('Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant'),
    error('response_format json_schema is not supported'),
    '{"detail":[{"loc":["body","messages",2,"content"],"msg":"Extra inputs are not permitted"}]}',
    error('cache_control: Extra inputs are not permitted'),
    error('Unrecognized request argument supplied: parallel_tool_calls'),
  ];
  for (const text of refusals) assert.equal(outputLengthMayCause(text), false, text);
});
