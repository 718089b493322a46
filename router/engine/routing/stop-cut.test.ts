import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatEncoder } from '../../faces/chat-face.js';
import { startEngineHarness } from '../../test-support/engine-harness.js';
import { startFakeUpstream } from '../../test-support/fake-upstream.js';
import { httpRequest } from '../../test-support/http-client.js';
import { fakeProviders } from '../../test-support/scenario.js';
import { json } from '../../test-support/upstream-behaviours.js';

test('a request that reaches the engine after a stop cut those in flight is ended at once: 503 router_stopping', async () => {
  const upstream = await startFakeUpstream();
  const config = {
    providers: fakeProviders(upstream, { alpha: ['m1'] }),
    sets: { main: ['alpha/m1'] },
    activeSet: 'main',
  };
  const engine = await startEngineHarness(config, () => new ChatEncoder());
  try {
    upstream.always('alpha/m1', json('fine'));
    engine.engine.cutInFlight();
    const reply = await httpRequest(engine.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(reply.status, 503);
    assert.equal((JSON.parse(reply.text) as { error: { code: string } }).error.code, 'router_stopping');
    assert.equal(upstream.calls.length, 0, 'no model was asked');
    const [entry] = engine.history.list(1);
    assert.equal(entry?.outcome, 'rejected');
    assert.deepEqual(entry?.attempts, []);
  } finally {
    await engine.close();
    await upstream.close();
  }
});
