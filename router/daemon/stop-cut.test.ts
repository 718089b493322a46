import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryEntry } from '../api-types.js';
import { httpRequest } from '../test-support/http-client.js';
import { withScenario, type ScenarioOptions } from '../test-support/scenario.js';
import { hang, sseContent, stallAfter } from '../test-support/upstream-behaviours.js';

// No attempt deadline runs out during these tests: only the stop ends the requests.
const ONE_MODEL: ScenarioOptions = {
  providers: { alpha: ['m1'] },
  failover: { requestTimeoutMs: 60_000, streamIdleTimeoutMs: 60_000, totalBudgetMs: 120_000 },
};

async function savedHistory(stateDir: string): Promise<HistoryEntry[]> {
  const file = JSON.parse(await readFile(path.join(stateDir, 'history.json'), 'utf8')) as {
    entries: HistoryEntry[];
  };
  return file.entries;
}

async function savedDays(stateDir: string): Promise<unknown> {
  return (JSON.parse(await readFile(path.join(stateDir, 'counters.json'), 'utf8')) as { days: unknown }).days;
}

test('a stream still running when the grace runs out gets the face error ending, is saved, and blames no model', async () => {
  await withScenario(ONE_MODEL, async ({ router, upstream }) => {
    upstream.script('alpha/m1', stallAfter(3));
    const reply = router.readChat({ stream: true });
    await reply.received('piece2');
    await router.router.stop({ graceMs: 0 });
    const { status, text } = await reply.done;
    assert.equal(status, 200);
    assert.match(text, /piece2/);
    assert.match(text, /"code":"router_stopping"/, 'the chat face ends the stream with its error frame');
    assert.match(text, /the router stopped before the stream from alpha\/m1 finished/);
    const [entry, ...others] = await savedHistory(router.stateDir);
    assert.equal(others.length, 0);
    assert.equal(entry?.outcome, 'partial');
    assert.deepEqual(
      entry?.attempts.map((attempt) => attempt.kind),
      ['router_stopping'],
    );
    assert.match(JSON.stringify(await savedDays(router.stateDir)), /"failed":1/);
    const model = router.model('alpha/m1');
    assert.equal(model.state, 'CLOSED');
    assert.equal(model.consecutiveFailures, 0);
    assert.equal(model.lastFailureKind, null, 'the model is not blamed for the stop');
  });
});

test('a request not answered when the grace runs out gets a 503 in its face shape, and is saved', async () => {
  await withScenario(ONE_MODEL, async ({ router, upstream }) => {
    upstream.script('alpha/m1', hang());
    const called = upstream.nextCall('alpha/m1');
    const reply = httpRequest(`${router.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fcm', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await called;
    await router.router.stop({ graceMs: 0 });
    const { status, text } = await reply;
    assert.equal(status, 503);
    const body = JSON.parse(text) as { type: string; error: { type: string; message: string } };
    assert.equal(body.type, 'error', 'the Messages face shape');
    assert.match(body.error.message, /the router is stopping/);
    const [entry] = await savedHistory(router.stateDir);
    assert.equal(entry?.outcome, 'rejected');
    assert.equal(entry?.clientStatus, 503);
    assert.deepEqual(
      entry?.attempts.map((attempt) => attempt.kind),
      ['router_stopping'],
    );
    assert.equal(router.model('alpha/m1').lastFailureKind, null);
  });
});

test('a stop that cuts a request after another was served saves both and succeeds', async () => {
  await withScenario(ONE_MODEL, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sseContent(['ok']), stallAfter(3));
    // Booked, its write still waiting on the debounce (the test's clock does not move).
    await router.chat({ stream: true });
    const reply = router.readChat({ stream: true });
    await reply.received('piece2');
    await router.router.stop({ graceMs: 0 });
    await reply.done;
    const entries = await savedHistory(router.stateDir);
    assert.deepEqual(
      entries.map((entry) => entry.outcome),
      ['served', 'partial'],
    );
  });
});
