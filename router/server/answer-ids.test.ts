/**
 * The ids an answer mints (a message's, a response's and its items', a tool call's the upstream gave none)
 * are its own: an agent that sends the same `x-request-id` twice, or none of its own, never gets an id an
 * earlier answer had, so a tool result always finds its call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FACES } from '../test-support/face-answers.js';
import { httpRequest } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { byStreaming, jsonBody, sse } from '../test-support/upstream-behaviours.js';
import {
  finishFrame,
  roleFrame,
  toolCallCompletion,
  toolCallFrame,
} from '../test-support/upstream-frames.js';

/** A tool call that comes without an id, streamed or whole. */
const idlessCall = byStreaming(
  sse([roleFrame(), toolCallFrame(0, '{"path":"a"}', { id: '', name: 'Read' }), finishFrame('tool_calls')]),
  jsonBody(toolCallCompletion('Read', '{"path":"a"}')),
);

const MINTED = /"(?:id|call_id|item_id)":"((?:msg|toolu|call_fcm|resp|fc|rs)_[A-Za-z0-9_]+)"/g;

for (const face of FACES) {
  for (const stream of [true, false]) {
    test(`${face.face}${stream ? ' stream' : ''}: two answers to one x-request-id share no minted id`, async () => {
      await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
        upstream.always('alpha/m1', idlessCall);
        const ask = () =>
          httpRequest(`${router.url}${face.path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-request-id': 'fixed-id', 'x-api-key': 'any' },
            body: JSON.stringify(face.body(stream, 'Read a.', ['Read'])),
          });
        const ids = async (): Promise<string[]> => {
          const reply = await ask();
          assert.equal(reply.status, 200, reply.text);
          return [...new Set([...reply.text.matchAll(MINTED)].map((match) => match[1] ?? ''))];
        };
        const first = await ids();
        const second = await ids();
        assert.ok(first.length > 0, 'the answer minted ids');
        assert.deepEqual(
          first.filter((id) => second.includes(id)),
          [],
        );
      });
    });
  }
}
