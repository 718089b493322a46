import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { deferred } from '../test-support/deferred.js';
import { TestClock } from '../test-support/test-clock.js';
import { fetchModelIds, MODELS_LIST_TIMEOUT_MS } from './models-list.js';

/** A provider that takes `GET /models` and never answers; resolves `asked` when the request is in. */
async function silentProvider(): Promise<{ url: string; asked: Promise<void>; close(): Promise<void> }> {
  const asked = deferred();
  const server = http.createServer(() => asked.resolve());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked: asked.promise,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('a model list that never comes is given up at the deadline on the router’s time', async () => {
  const provider = await silentProvider();
  const agent = new Agent();
  try {
    const clock = new TestClock();
    let settled = false;
    const target = { baseUrl: provider.url, apiKey: 'k', headers: {} };
    const result = fetchModelIds(target, clock, agent).finally(() => (settled = true));
    await provider.asked;
    clock.advance(MODELS_LIST_TIMEOUT_MS - 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'still waiting just before the deadline');
    clock.advance(1);
    assert.deepEqual(await result, {
      ok: false,
      error: 'the model list could not be fetched (TimeoutError)',
    });
    assert.equal(clock.pending(), 0);
  } finally {
    await agent.destroy();
    await provider.close();
  }
});
