/**
 * `POST /v1/messages/count_tokens` on the real router: `@anthropic-ai/sdk`'s `countTokens` gets the local
 * estimate, no provider is asked and nothing is routed; a bad body is a 400 in Anthropic's error shape.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { withBlackHoles } from '../test-support/face-scenario.js';
import { httpRequest, parseReply } from '../test-support/http-client.js';

const client = (url: string): Anthropic => new Anthropic({ baseURL: url, apiKey: 'any', maxRetries: 0 });

test('count_tokens answers locally: the estimate, no upstream call, no routed request', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    // The SDK's body, {"model":"fcm","messages":[{"role":"user","content":"x…"}]}, is 457 bytes: 4.5 a token.
    const messages = [{ role: 'user' as const, content: 'x'.repeat(400) }];
    const counted = await client(router.url).messages.countTokens({ model: 'fcm', messages });
    assert.deepEqual(counted, { input_tokens: 102 });
    // Claude Code asks on the beta path (`?beta=true`).
    const beta = await client(router.url).beta.messages.countTokens({ model: 'fcm', messages });
    assert.equal(beta.input_tokens, 102);
    assert.equal(upstream.calls.length, 0);
    assert.equal(router.router.history(10).entries.length, 0);
  });
});

test('count_tokens refuses a bad body with an Anthropic-shaped 400 naming the field', async () => {
  await withBlackHoles(async ({ router, upstream }) => {
    const bad = client(router.url).messages.countTokens({
      model: 'fcm',
      messages: 'hello' as unknown as Anthropic.MessageParam[],
    });
    await assert.rejects(bad, (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError);
      assert.deepEqual(error.error, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'fcm-router: messages must be array' },
      });
      assert.equal(error.headers.get('x-fcm-v2-decision'), 'none!rejected||skips=0');
      return true;
    });
    const notJson = await httpRequest(`${router.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    assert.equal(notJson.status, 415);
    assert.deepEqual(parseReply(notJson), {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'fcm-router: send the request body as application/json',
      },
    });
    assert.equal(upstream.calls.length, 0);
  });
});
