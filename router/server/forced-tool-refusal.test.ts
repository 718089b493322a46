/**
 * A request that forces a tool it does not offer is refused on each face before any model is asked
 * (OpenAI's API and vLLM refuse it, so each model would only refuse it in turn); forcing an offered tool is routed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpRequest, type HttpReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { jsonBody } from '../test-support/upstream-behaviours.js';
import { toolCallCompletion } from '../test-support/upstream-frames.js';

const SCHEMA = { type: 'object', properties: { path: { type: 'string' } } };

/** Each face's body offering the tool `read` and forcing `forced`. */
const FACES: readonly { path: string; body: (forced: string) => Record<string, unknown> }[] = [
  {
    path: '/v1/chat/completions',
    body: (forced) => ({
      model: 'fcm',
      messages: [{ role: 'user', content: 'Read a.txt' }],
      tools: [{ type: 'function', function: { name: 'read', parameters: SCHEMA } }],
      tool_choice: { type: 'function', function: { name: forced } },
    }),
  },
  {
    path: '/v1/messages',
    body: (forced) => ({
      model: 'fcm',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Read a.txt' }],
      tools: [{ name: 'read', input_schema: SCHEMA }],
      tool_choice: { type: 'tool', name: forced },
    }),
  },
  {
    path: '/v1/responses',
    body: (forced) => ({
      model: 'fcm',
      input: 'Read a.txt',
      tools: [{ type: 'function', name: 'read', parameters: SCHEMA }],
      tool_choice: { type: 'function', name: forced },
    }),
  },
];

/** A model's answer calling `read`. */
const callsRead = jsonBody(toolCallCompletion('read', '{"path":"a.txt"}', 'call_1'));

function errorOf(reply: HttpReply): { message?: string; param?: string } {
  const parsed = JSON.parse(reply.text) as { error?: { message?: string; param?: string } };
  return parsed.error ?? {};
}

for (const face of FACES)
  test(`${face.path}: forcing a tool the request does not offer is a 400 naming it, no model asked`, async () => {
    await withScenario({ providers: { alpha: ['m1'], beta: ['m2'] } }, async ({ router, upstream }) => {
      for (const model of ['alpha/m1', 'beta/m2']) upstream.always(model, callsRead);
      const post = (forced: string) =>
        httpRequest(`${router.url}${face.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'any' },
          body: JSON.stringify(face.body(forced)),
        });
      const refused = await post('delete_everything');
      assert.equal(refused.status, 400, refused.text);
      assert.match(
        errorOf(refused).message ?? '',
        /tool_choice forces the tool "delete_everything", which is not among the request's tools/,
      );
      assert.equal(refused.headers['x-fcm-v2-attempts'], '0');
      assert.equal(upstream.calls.length, 0);

      const served = await post('read');
      assert.equal(served.status, 200, served.text);
      assert.equal(upstream.calls.length, 1);
    });
  });
