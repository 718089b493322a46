import { test } from 'node:test';
import assert from 'node:assert/strict';
import { empty200, json, status } from '../test-support/upstream-behaviours.js';
import { parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';

const PROVIDERS = { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] };
const SETS = { main: ['alpha/m1', 'beta/m2'], backup: ['beta/m2'], default: ['gamma/m3'] };

interface ErrorBody {
  error: { message: string; type: string; code: string | null };
}

test('model names: fcm, fcm:<set>, fcm:default and any other name pick the right set', async () => {
  await withScenario(
    { providers: PROVIDERS, sets: SETS, activeSet: 'main' },
    async ({ router, upstream }) => {
      for (const key of ['alpha/m1', 'beta/m2', 'gamma/m3']) upstream.always(key, json(key));
      const cases: [string, string, string | null][] = [
        ['fcm', 'alpha/m1', 'main'],
        ['fcm:backup', 'beta/m2', 'backup'],
        ['fcm:default', 'gamma/m3', 'default'],
        ['gpt-4o', 'alpha/m1', 'main'],
        ['claude-sonnet-4', 'alpha/m1', 'main'],
      ];
      for (const [name, served, set] of cases) {
        const reply = await router.chat({ model: name });
        assert.equal(reply.status, 200, name);
        assert.equal(reply.headers['x-fcm-v2-model'], served, name);
        const entry = router.lastEntry();
        assert.equal(entry.set, set, name);
        assert.equal(entry.modelRequested, name);
      }
    },
  );
});

test('fcm:default is the active set when no set is named "default"', async () => {
  const sets = { main: ['alpha/m1'], backup: ['beta/m2'] };
  await withScenario({ providers: PROVIDERS, sets, activeSet: 'backup' }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a')).always('beta/m2', json('b'));
    const reply = await router.chat({ model: 'fcm:default' });
    assert.equal(reply.headers['x-fcm-v2-model'], 'beta/m2');
    assert.equal(router.lastEntry().set, 'backup');
  });
});

test('a pinned model its provider answers 404 for is a 404 naming it, not a 502 to retry; in a set it stays a 502', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router, upstream }) => {
    upstream.always('alpha/typo', status(404)).always('alpha/m1', status(404)).always('beta/m2', status(404));
    const pinned = await router.chat({ model: 'fcm:@alpha/typo' });
    assert.equal(pinned.status, 404, pinned.text);
    const body = parseReply<ErrorBody>(pinned);
    assert.equal(body.error.code, 'model_not_found');
    assert.match(body.error.message, /alpha does not know the model "typo"/);
    assert.equal(router.lastEntry().attempts[0]?.kind, 'model_not_found');
    const set = await router.chat({ model: 'fcm:main' });
    assert.equal(set.status, 502, 'the set’s models are the router’s to fix, not the agent’s name');
  });
});

test('an unknown set is a 404 in OpenAI shape, with decision headers', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router, upstream }) => {
    const reply = await router.chat({ model: 'fcm:nope' });
    assert.equal(reply.status, 404);
    const body = parseReply<ErrorBody>(reply);
    assert.equal(body.error.code, 'model_not_found');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /nope/);
    assert.ok(reply.headers['x-request-id']);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!rejected||skips=0');
    assert.equal(upstream.calls.length, 0);
    assert.equal(router.lastEntry().outcome, 'rejected');
  });
});

for (const name of ['fcm:@alpha/m1', 'fcm:alpha/m1']) {
  test(`${name} pins one model: no failover, full bookkeeping`, async () => {
    await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router, upstream }) => {
      upstream.script('alpha/m1', empty200(), json('pinned answer')).always('beta/m2', json('never'));
      const failed = await router.chat({ model: name });
      assert.equal(failed.status, 502);
      assert.equal(failed.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:empty_choices|skips=0');
      assert.equal(upstream.callsTo('beta/m2').length, 0);
      assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
      const entry = router.lastEntry();
      assert.equal(entry.pinned, 'alpha/m1');
      assert.equal(entry.attempts[0]?.role, 'pinned');

      const served = await router.chat({ model: name });
      assert.equal(served.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
      assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    });
  });
}

test('a pinned model is dispatched even when OPEN, quota-paused or its key is refused', async () => {
  const options = { providers: PROVIDERS, sets: SETS, breaker: { failureThreshold: 1 } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(500)).always('beta/m2', json('beta'));
    await router.chat();
    assert.equal(router.model('alpha/m1').state, 'OPEN');
    upstream.script('alpha/m1', json('open but pinned'));
    const open = await router.chat({ model: 'fcm:@alpha/m1' });
    assert.equal(open.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.equal(router.lastEntry().attempts[0]?.breakerBefore, 'OPEN');
    assert.equal(router.model('alpha/m1').state, 'CLOSED');

    upstream.script('alpha/m1', status(429, { retryAfter: '600' }), json('paused but pinned'));
    await router.chat();
    assert.ok(router.model('alpha/m1').quotaPausedUntil !== null);
    const paused = await router.chat({ model: 'fcm:@alpha/m1' });
    assert.equal(paused.headers['x-fcm-v2-model'], 'alpha/m1');
    assert.equal(paused.status, 200);

    upstream.script('alpha/m1', status(401), json('refused key but pinned'));
    await router.chat();
    assert.equal(router.model('alpha/m1').authBlocked, true);
    const blocked = await router.chat({ model: 'fcm:@alpha/m1' });
    assert.equal(blocked.status, 200);
    assert.equal(blocked.headers['x-fcm-v2-model'], 'alpha/m1');
  });
});

test('pinning a model of an unknown provider, or a name with no model id, is a 404 saying which', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router }) => {
    const reply = await router.chat({ model: 'fcm:@nobody/model' });
    assert.equal(reply.status, 404);
    const unknown = parseReply<ErrorBody>(reply).error;
    assert.equal(unknown.code, 'model_not_found');
    assert.match(
      unknown.message,
      /unknown provider "nobody" in "nobody\/model" \(providers: alpha, [^)]+\)$/,
    );
    for (const name of ['fcm:@alpha/', 'fcm:@/m1']) {
      const shape = await router.chat({ model: name });
      assert.equal(shape.status, 404);
      assert.match(parseReply<ErrorBody>(shape).error.message, /is not provider\/modelId/, name);
    }
  });
});

test('GET /v1/models lists fcm, each fcm:<set> and fcm:@provider/model', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router }) => {
    const reply = await router.get('/v1/models');
    assert.equal(reply.status, 200);
    const body = parseReply<{ object: string; data: { id: string; object: string }[] }>(reply);
    assert.equal(body.object, 'list');
    const ids = body.data.map((model) => model.id);
    assert.equal(ids[0], 'fcm');
    for (const id of [
      'fcm:main',
      'fcm:backup',
      'fcm:default',
      'fcm:@alpha/m1',
      'fcm:@beta/m2',
      'fcm:@gamma/m3',
    ]) {
      assert.ok(ids.includes(id), id);
    }
    assert.ok(body.data.every((model) => model.object === 'model'));
  });
});

test('GET /v1/models/<id> gives the list entry of a name it serves, and a 404 model_not_found otherwise', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router }) => {
    for (const id of ['fcm', 'fcm:main', 'fcm:@alpha/m1']) {
      const reply = await router.get(`/v1/models/${encodeURIComponent(id)}`);
      assert.equal(reply.status, 200, id);
      const entry = parseReply<{ id: string; object: string; owned_by: string }>(reply);
      assert.deepEqual([entry.id, entry.object, entry.owned_by], [id, 'model', 'fcm-router']);
    }
    // Clients that do not encode the name send its ':', '@' and '/' as they are.
    const plain = await router.get('/v1/models/fcm:@beta/m2');
    assert.equal(parseReply<{ id: string }>(plain).id, 'fcm:@beta/m2');
    const listed = parseReply<{ data: { id: string }[] }>(await router.get('/v1/models'));
    const fromList = listed.data.find((model) => model.id === 'fcm:backup');
    assert.deepEqual(parseReply(await router.get('/v1/models/fcm:backup')), fromList);

    for (const id of ['gpt-4o', 'fcm:nope', '%E0%A4%A']) {
      const missing = await router.get(`/v1/models/${id}`);
      assert.equal(missing.status, 404, id);
      const error = parseReply<{ error: { code: string; param: string } }>(missing).error;
      assert.deepEqual([error.code, error.param], ['model_not_found', 'model']);
    }
  });
});

test('pinning a model id no list names, under a known provider, dispatches it as sent', async () => {
  await withScenario({ providers: PROVIDERS, sets: SETS }, async ({ router, upstream }) => {
    upstream.always('alpha/brand-new', json('fresh model'));
    const reply = await router.chat({ model: 'fcm:@alpha/brand-new' });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['x-fcm-v2-model'], 'alpha/brand-new');
    assert.equal(upstream.callsTo('alpha/brand-new')[0]?.body?.model, 'brand-new');
    assert.equal(router.lastEntry().pinned, 'alpha/brand-new');
  });
});
