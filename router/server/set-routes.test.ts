/**
 * Set management over the API against a real router: delete (never the active set), rename (never over
 * another set), and `fastest` ordering, which the next request follows; a choice that changes nothing
 * writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { ErrorResponse, StateResponse } from '../api-types.js';
import { loadConfigFile } from '../config/config-store.js';
import type { ConfigInput } from '../config/schema.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { parseReply } from '../test-support/http-client.js';
import { startHarness, type RouterHarness } from '../test-support/router-harness.js';
import { fakeProviders, withScenario } from '../test-support/scenario.js';
import { seededLatencyDir } from '../test-support/latency-seed.js';
import { json } from '../test-support/upstream-behaviours.js';

const SETS = { main: ['alpha/m1', 'beta/m2'], spare: ['beta/m2'], old: ['alpha/m1'] };
const SCENARIO = { providers: { alpha: ['m1'], beta: ['m2'] }, sets: SETS };

async function written(router: RouterHarness): Promise<ConfigInput> {
  return JSON.parse(await readFile(router.router.configPath, 'utf8')) as ConfigInput;
}

const codeOf = (text: string): string => (JSON.parse(text) as ErrorResponse).error.code ?? '';

test('a set is deleted with its order; the active set and unknown sets are refused', async () => {
  const ranking = { order: { old: 'fastest' as const } };
  await withScenario({ ...SCENARIO, ranking }, async ({ router }) => {
    const gone = await router.api('POST', '/api/sets/delete', { set: 'old' });
    assert.equal(gone.status, 200, gone.text);
    const file = await written(router);
    assert.deepEqual(file.sets, { main: SETS.main, spare: SETS.spare });
    assert.deepEqual(file.router?.ranking?.order, {});
    const active = await router.api('POST', '/api/sets/delete', { set: 'main' });
    assert.equal(active.status, 409);
    assert.equal(codeOf(active.text), 'set_active');
    assert.equal((await router.api('POST', '/api/sets/delete', { set: 'old' })).status, 404);
    assert.deepEqual(parseReply<StateResponse>(await router.get('/api/state')).sets, file.sets);
  });
});

test('a set is renamed in place; agents follow the active set to its new name; names are checked', async () => {
  await withScenario(SCENARIO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a'));
    const renamed = await router.api('POST', '/api/sets/rename', { set: 'main', to: 'work' });
    assert.equal(renamed.status, 200, renamed.text);
    const file = await written(router);
    assert.deepEqual(Object.keys(file.sets ?? {}), ['work', 'spare', 'old']);
    assert.equal(file.activeSet, 'work');
    const reply = await router.chat();
    assert.equal(reply.status, 200);
    assert.equal(router.lastEntry().set, 'work');

    const taken = await router.api('POST', '/api/sets/rename', { set: 'work', to: 'spare' });
    assert.equal(taken.status, 409);
    assert.equal(codeOf(taken.text), 'set_exists');
    const bad = await router.api('POST', '/api/sets/rename', { set: 'work', to: 'my set' });
    assert.equal(bad.status, 400);
    const { message, param } = parseReply<ErrorResponse>(bad).error;
    assert.equal(message, 'fcm-router: "my set" is not a set name: use letters, digits, . _ - (up to 100)');
    assert.equal(param, 'to');
  });
});

test('a rename saves what the file held plus the new name: no router or order is filled in', async () => {
  await withScenario(SCENARIO, async ({ router }) => {
    const before = await written(router);
    assert.equal(before.router?.ranking, undefined, 'the scenario writes no ranking');
    const renamed = await router.api('POST', '/api/sets/rename', { set: 'spare', to: 'extra' });
    assert.equal(renamed.status, 200, renamed.text);
    const sets = { main: SETS.main, extra: SETS.spare, old: SETS.old };
    assert.deepEqual(await written(router), { ...before, sets });
  });
});

test('fastest is in effect for the next request once chosen; priority again restores the user’s order', async () => {
  const dir = await seededLatencyDir({ 'alpha/m1': { ttfbMs: 3000 }, 'beta/m2': { ttfbMs: 400 } });
  await withScenario({ ...SCENARIO, ranking: { exploration: 0 }, dir }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('alpha')).always('beta/m2', json('beta'));
    const served = async (): Promise<unknown> => (await router.chat()).headers['x-fcm-v2-model'];
    assert.equal(await served(), 'alpha/m1', 'priority: the user’s first model');

    const fastest = await router.api('POST', '/api/sets/order', { set: 'main', order: 'fastest' });
    assert.equal(fastest.status, 200, fastest.text);
    assert.deepEqual((await written(router)).router?.ranking?.order, { main: 'fastest' });
    const shown = parseReply<StateResponse>(await router.get('/api/state')).models.map((m) => m.key);
    assert.deepEqual(shown.slice(0, 2), ['beta/m2', 'alpha/m1'], 'the state shows the order it routes in');
    assert.equal(await served(), 'beta/m2');

    await router.api('POST', '/api/sets/order', { set: 'main', order: 'priority' });
    assert.deepEqual((await written(router)).router?.ranking?.order, {});
    assert.equal(await served(), 'alpha/m1');
    const wrong = await router.api('POST', '/api/sets/order', { set: 'main', order: 'random' });
    assert.equal(wrong.status, 400);
    assert.match(wrong.text, /one of priority or fastest/);
  });
});

for (const [label, sets] of [
  ['without sets', {}],
  ['with an empty sets object', { sets: {} }],
] as const)
  test(`on a config ${label}, what the dashboard writes names a set as active, so the next start accepts it`, async () => {
    const upstream = await startFakeUpstream();
    const providers = fakeProviders(upstream, { alpha: ['m1'] });
    const router = await startHarness({ config: { providers, ...sets } });
    try {
      const steps: [string, string, unknown][] = [
        ['POST', '/api/sets/active', { set: 'default' }],
        ['PUT', '/api/sets/work', { models: ['alpha/m1'] }],
        ['POST', '/api/sets/rename', { set: 'default', to: 'main' }],
        ['POST', '/api/sets/active', { set: 'work' }],
      ];
      for (const [method, url, body] of steps) {
        const reply = await router.api(method, url, body);
        assert.equal(reply.status, 200, `${method} ${url}: ${reply.text}`);
        const loaded = await loadConfigFile(router.router.configPath);
        assert.ok(loaded.ok, `${method} ${url}: ${JSON.stringify(loaded)}`);
      }
      assert.equal((await written(router)).activeSet, 'work');
    } finally {
      await router.close();
      await upstream.close();
    }
  });

test('a choice that changes nothing writes nothing: the default set stays automatic', async () => {
  const upstream = await startFakeUpstream();
  const providers = fakeProviders(upstream, { alpha: ['m1'] });
  const router = await startHarness({ config: { providers } });
  try {
    const before = await readFile(router.router.configPath, 'utf8');
    const steps: [string, unknown][] = [
      ['/api/sets/order', { set: 'default', order: 'priority' }],
      ['/api/sets/active', { set: 'default' }],
    ];
    for (const [url, body] of steps) {
      const reply = await router.api('POST', url, body);
      assert.equal(reply.status, 200, `${url}: ${reply.text}`);
      assert.equal(await readFile(router.router.configPath, 'utf8'), before, `${url} wrote the file`);
    }
    const fastest = await router.api('POST', '/api/sets/order', { set: 'default', order: 'fastest' });
    assert.equal(fastest.status, 200, fastest.text);
    const sets = (await written(router)).sets ?? {};
    assert.deepEqual(Object.keys(sets), ['default'], 'a real change writes the set out');
    assert.equal(sets.default?.[0], 'alpha/m1');
  } finally {
    await router.close();
    await upstream.close();
  }
});
