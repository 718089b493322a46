/**
 * A throw in a face's own code (its translator, its encoder's constructor) is a local fault of that
 * request: a 500 `internal_error` in the face's error shape, with its request id, the decision headers and
 * a history entry, never the server catch-all's bare OpenAI-shaped 500.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatEncoder } from '../faces/chat-face.js';
import { ResponseItemStore, type MessagesExtra } from '../faces/index.js';
import { startEngineHarness, type EngineHarness } from '../test-support/engine-harness.js';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { httpRequest, type HttpReply } from '../test-support/http-client.js';
import { fakeProviders } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';
import type { FaceSpec } from './face-route.js';
import { messagesFace, responsesFace } from './face-specs.js';

const PROMPT = 'PROMPT-TEXT-91c2';

async function withEngine(
  run: (engine: EngineHarness, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  const config = {
    providers: fakeProviders(upstream, { alpha: ['m1'] }),
    sets: { main: ['alpha/m1'] },
    activeSet: 'main',
  };
  const engine = await startEngineHarness(config, () => new ChatEncoder());
  try {
    upstream.always('alpha/m1', json('fine'));
    await run(engine, upstream);
  } finally {
    await engine.close();
    await upstream.close();
  }
}

const post = (engine: EngineHarness, body: Record<string, unknown>): Promise<HttpReply> =>
  httpRequest(engine.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'agent-req-1' },
    body: JSON.stringify(body),
  });

const MESSAGES = { model: 'fcm', max_tokens: 50, messages: [{ role: 'user', content: PROMPT }] };

/** The reply is the contained fault: 500, the agent's request id, decision headers, one history entry. */
function assertContained(engine: EngineHarness, reply: HttpReply): void {
  assert.equal(reply.status, 500);
  assert.equal(reply.headers['x-request-id'], 'agent-req-1');
  assert.match(String(reply.headers['x-fcm-v2-decision']), /^none!internal_error\|/);
  const entry = engine.history.list(1)[0];
  assert.equal(entry?.requestId, 'agent-req-1');
  assert.equal(entry?.outcome, 'internal_error');
  assert.equal(entry?.clientStatus, 500);
  const errors = engine.logger.lines.filter((line) => line.startsWith('error'));
  assert.equal(errors.length, 1);
  assert.match(errors[0] ?? '', /request agent-req-1: local fault: .*TypeError/);
  assert.ok(!engine.logger.lines.join('\n').includes(PROMPT), 'the fault message is not logged');
}

test('a throw in the Messages translator answers a Messages-shaped 500 and is recorded', async () => {
  await withEngine(async (engine, upstream) => {
    const face: FaceSpec<MessagesExtra> = {
      ...messagesFace,
      translate: () => {
        throw new TypeError(`cannot translate ${PROMPT}`);
      },
    };
    engine.useFace(face as FaceSpec<unknown>);
    const reply = await post(engine, MESSAGES);
    assertContained(engine, reply);
    const body = JSON.parse(reply.text) as { type: string; error: { type: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'api_error');
    assert.equal(upstream.calls.length, 0);

    engine.useFace(messagesFace as FaceSpec<unknown>);
    assert.equal((await post(engine, MESSAGES)).status, 200, 'the next request is served');
  });
});

test("a throw in a face's encoder constructor answers in the face's own error shape and is recorded", async () => {
  await withEngine(async (engine) => {
    const responses = responsesFace({
      items: new ResponseItemStore({ clock: () => 0 }),
      clock: () => 0,
    }) as FaceSpec<unknown>;
    const face: FaceSpec<unknown> = {
      ...responses,
      encoder: (request) => {
        if (request !== null) throw new TypeError(`cannot encode ${PROMPT}`);
        return responses.encoder(null);
      },
    };
    engine.useFace(face);
    const reply = await post(engine, { model: 'fcm', input: PROMPT });
    assertContained(engine, reply);
    assert.equal((JSON.parse(reply.text) as { error: { code: string } }).error.code, 'internal_error');
  });
});
