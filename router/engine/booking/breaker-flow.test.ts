import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { StateResponse } from '../../api-types.js';
import { MAX_UNLISTED } from '../../state/breaker-store.js';
import { parseReply } from '../../test-support/http-client.js';
import { deferred, within } from '../../test-support/deferred.js';
import { type FakeUpstream } from '../../test-support/fake-upstream.js';
import { after, empty200, json, status } from '../../test-support/upstream-behaviours.js';
import { type RouterHarness } from '../../test-support/router-harness.js';
import { withScenario } from '../../test-support/scenario.js';

const COOLDOWN = 60_000;
const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };
/** For attempts the test holds open while it moves the clock past a cooldown: deadlines far beyond that. */
const PATIENT = { ...TWO, failover: { requestTimeoutMs: 3_600_000, totalBudgetMs: 3_600_000 } };

function skipReasons(router: RouterHarness): string[] {
  return router.lastEntry().skipped.map((skip) => `${skip.model}:${skip.reason}`);
}

/** Trips alpha/m1 OPEN in three requests; beta/m2 answers a client error (no breaker damage) meanwhile. */
async function tripAlpha(router: RouterHarness, upstream: FakeUpstream): Promise<void> {
  upstream.script('alpha/m1', empty200(), empty200(), empty200());
  upstream.script('beta/m2', status(400), status(400), status(400));
  for (let i = 0; i < 3; i += 1) await router.chat();
  assert.equal(router.model('alpha/m1').state, 'OPEN');
}

test('CLOSED → DEGRADED at ceil(threshold × ratio) → OPEN at threshold, then skipped as circuit_open', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', empty200(), empty200(), empty200());
    upstream.script('beta/m2', status(400), status(400), status(400), json('from beta'));

    await router.chat();
    assert.equal(router.model('alpha/m1').state, 'CLOSED');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1);

    await router.chat();
    assert.equal(router.model('alpha/m1').state, 'DEGRADED');

    // DEGRADED goes behind the CLOSED beta; beta's 400 fails over to it.
    const third = await router.chat();
    assert.equal(
      third.headers['x-fcm-v2-decision'],
      'none!all_failed|beta/m2:400->alpha/m1:empty_choices|skips=0',
    );
    const opened = router.model('alpha/m1');
    assert.equal(opened.state, 'OPEN');
    assert.equal(opened.tripCount, 1);
    assert.equal(opened.cooldownMs, COOLDOWN);
    assert.ok(opened.openUntil !== null && opened.openUntil > router.clock.now());

    const fourth = await router.chat();
    assert.equal(fourth.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1');
    assert.deepEqual(skipReasons(router), ['alpha/m1:circuit_open']);
    assert.equal(upstream.callsTo('alpha/m1').length, 3);
  });
});

test('HALF_OPEN after the cooldown admits exactly one in-flight trial; success closes and keeps tripCount', async () => {
  await withScenario(PATIENT, async ({ router, upstream }) => {
    await tripAlpha(router, upstream);
    router.clock.advance(COOLDOWN + 1);
    assert.equal(router.model('alpha/m1').state, 'HALF_OPEN');

    const release = deferred();
    upstream.script('alpha/m1', after(release.promise, json('trial passed')));
    upstream.always('beta/m2', json('from beta'));
    const trial = router.chat();
    await upstream.nextCall('alpha/m1', 4);

    const others = await Promise.all([router.chat(), router.chat(), router.chat()]);
    for (const reply of others) {
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1');
    }
    const history = router.router.history(3).entries;
    for (const entry of history)
      assert.deepEqual(entry.skipped, [{ model: 'alpha/m1', reason: 'half_open_busy' }]);
    assert.equal(upstream.callsTo('alpha/m1').length, 4, 'only the trial reached the recovering model');

    release.resolve();
    const trialReply = await trial;
    assert.equal(trialReply.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.equal(router.lastEntry().attempts[0]?.role, 'trial');
    assert.equal(router.lastEntry().attempts[0]?.breakerBefore, 'HALF_OPEN');
    const closed = router.model('alpha/m1');
    assert.equal(closed.state, 'CLOSED');
    assert.equal(closed.consecutiveFailures, 0);
    assert.equal(closed.tripCount, 1);
  });
});

test('requests that arrive together at a HALF_OPEN model still send it exactly one trial', async () => {
  await withScenario(PATIENT, async ({ router, upstream }) => {
    await tripAlpha(router, upstream);
    router.clock.advance(COOLDOWN + 1);
    const release = deferred();
    upstream.always('alpha/m1', after(release.promise, json('trial passed')));
    upstream.always('beta/m2', json('from beta'));
    let finished = 0;
    const fourDone = deferred();
    const off = router.router.on('request', () => {
      if (++finished === 4) fourDone.resolve();
    });
    const replies = Array.from({ length: 5 }, () => router.chat());
    // Four requests finish on beta while the trial is held open; only then is the trial released.
    await within(fourDone.promise, 'four requests to finish on beta');
    off();
    release.resolve();
    const models = (await Promise.all(replies)).map((reply) => reply.headers['x-fcm-v2-model']).sort();
    assert.deepEqual(models, ['alpha/m1', 'beta/m2', 'beta/m2', 'beta/m2', 'beta/m2']);
    assert.equal(upstream.callsTo('alpha/m1').length, 4, 'three trips, then one trial');
    const busy = router.router
      .history(5)
      .entries.filter((entry) => entry.skipped.some((skip) => skip.reason === 'half_open_busy'));
    assert.equal(busy.length, 4);
  });
});

test('a failed HALF_OPEN trial reopens with an escalated cooldown', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    await tripAlpha(router, upstream);
    router.clock.advance(COOLDOWN + 1);
    upstream.script('alpha/m1', empty200()).always('beta/m2', json('from beta'));
    const reply = await router.chat();
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:empty_choices->beta/m2:200|skips=0',
    );
    const reopened = router.model('alpha/m1');
    assert.equal(reopened.state, 'OPEN');
    assert.equal(reopened.tripCount, 2);
    assert.equal(reopened.cooldownMs, COOLDOWN * 2);
  });
});

test('DEGRADED ranks behind every CLOSED model, and gets a trial at its place after a quiet cooldown', async () => {
  const options = { providers: { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script('alpha/m1', empty200(), empty200());
    upstream.always('beta/m2', json('from beta')).always('gamma/m3', json('from gamma'));
    await router.chat();
    await router.chat();
    assert.equal(router.model('alpha/m1').state, 'DEGRADED');
    assert.deepEqual(
      router.router.state().models.map((model) => model.key),
      ['beta/m2', 'gamma/m3', 'alpha/m1'],
      'state lists the active set in routing order',
    );
    upstream.script('beta/m2', status(503));
    const behind = await router.chat();
    assert.equal(behind.headers['x-fcm-v2-decision'], 'gamma/m3!served|beta/m2:503->gamma/m3:200|skips=0');

    router.clock.advance(COOLDOWN);
    upstream.script('alpha/m1', json('recovered'));
    const trial = await router.chat();
    assert.equal(trial.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.equal(router.lastEntry().attempts[0]?.role, 'trial');
    assert.equal(router.model('alpha/m1').state, 'CLOSED');
  });
});

test('panic: with every candidate OPEN, the soonest-cooldown model is still tried', async () => {
  await withScenario({ ...TWO, breaker: { failureThreshold: 1 } }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(500)).script('beta/m2', status(400));
    await router.chat();
    router.clock.advance(10_000);
    upstream.script('beta/m2', status(500));
    await router.chat();
    assert.equal(router.model('alpha/m1').state, 'OPEN');
    assert.equal(router.model('beta/m2').state, 'OPEN');

    upstream.script('alpha/m1', json('panic served'));
    const reply = await router.chat();
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=2');
    assert.equal(router.lastEntry().attempts[0]?.role, 'panic');
    assert.equal(router.model('alpha/m1').state, 'CLOSED');
  });
});

test('panic that fails: one attempt (not zero), and the model reopens with a longer cooldown', async () => {
  await withScenario(
    { providers: { alpha: ['m1'] }, breaker: { failureThreshold: 1 } },
    async ({ router, upstream }) => {
      upstream.script('alpha/m1', status(500), status(500));
      await router.chat();
      const reply = await router.chat();
      assert.equal(reply.status, 502);
      assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:500|skips=1');
      const alpha = router.model('alpha/m1');
      assert.equal(alpha.state, 'OPEN');
      assert.equal(alpha.tripCount, 2);
      assert.equal(alpha.cooldownMs, COOLDOWN * 2);
    },
  );
});

test('POST /api/models/reset closes an OPEN breaker; an unknown model is 404', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    await tripAlpha(router, upstream);
    const reset = await router.api('POST', '/api/models/reset', { model: 'alpha/m1' });
    assert.equal(reset.status, 200);
    const alpha = router.model('alpha/m1');
    assert.equal(alpha.state, 'CLOSED');
    assert.equal(alpha.tripCount, 0);
    const unknown = await router.api('POST', '/api/models/reset', { model: 'nobody/none' });
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.text).error.code, 'model_not_found');
  });
});

test('a pinned attempt sent during an earlier trip does not close the breaker once it tripped again', async () => {
  await withScenario(PATIENT, async ({ router, upstream }) => {
    await tripAlpha(router, upstream);
    // A pinned request goes to the OPEN model and is held at the upstream.
    const gate = deferred();
    upstream.script('alpha/m1', after(gate.promise, json('late but good')));
    const pinned = router.chat({ model: 'fcm:@alpha/m1' });
    await upstream.nextCall('alpha/m1', 4);
    // Meanwhile the cooldown runs out and the trial fails: the breaker trips a second time.
    router.clock.advance(COOLDOWN + 1);
    upstream.script('alpha/m1', empty200());
    upstream.script('beta/m2', json('from beta'));
    await router.chat();
    const reopened = router.model('alpha/m1');
    assert.equal(reopened.state, 'OPEN');
    assert.equal(reopened.tripCount, 2);
    // The pinned attempt from the first trip now succeeds: it proves nothing about the second.
    gate.resolve();
    const reply = await within(pinned, 'the pinned answer');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['x-fcm-v2-model'], 'alpha/m1');
    const after2 = router.model('alpha/m1');
    assert.equal(after2.state, 'OPEN', 'still open from the second trip');
    assert.equal(after2.tripCount, 2);
  });
});

test('made-up pinned model ids leave no saved breaker and a bounded number in memory', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', empty200());
    for (let i = 0; i < 3; i += 1) await router.chat({ model: 'fcm:@alpha/m1' });
    // Every other id of alpha is answered by the fake upstream's 500: each leaves a failure.
    for (let i = 0; i < MAX_UNLISTED + 40; i += 1) {
      const reply = await router.chat({ model: `fcm:@alpha/made-up-${i}` });
      assert.equal(reply.status, 502, reply.text);
    }
    for (let i = 0; i < 20; i += 1) await router.chat({ model: `fcm:@nobody/made-up-${i}` });
    const state = parseReply<StateResponse>(await router.get('/api/state'));
    const madeUp = state.models.filter((model) => model.key.includes('made-up'));
    assert.ok(madeUp.length <= MAX_UNLISTED, `${madeUp.length} made-up models shown`);
    assert.ok(!state.models.some((model) => model.key.startsWith('nobody/')), 'no unknown provider kept');
    assert.equal(
      router.model(`alpha/made-up-${MAX_UNLISTED + 39}`).consecutiveFailures,
      1,
      'the latest kept',
    );
    await router.stop();
    const saved = JSON.parse(await readFile(path.join(router.stateDir, 'breakers.json'), 'utf8')) as {
      breakers: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(saved.breakers), ['alpha/m1'], 'only the config’s model is saved');
  });
});

test('a pinned name that names no model is refused and leaves nothing in the models list', async () => {
  await withScenario(TWO, async ({ router }) => {
    // A provider's name alone: no model id after it.
    const reply = await router.chat({ model: 'fcm:@alpha' });
    assert.equal(reply.status, 404, reply.text);
    const state = parseReply<StateResponse>(await router.get('/api/state'));
    assert.deepEqual(state.models.map((model) => model.key).sort(), ['alpha/m1', 'beta/m2']);
  });
});

test('a dashboard Test of an OPEN model before its cooldown ran out: failing does not lengthen the outage, passing closes it', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    await tripAlpha(router, upstream);
    const before = router.model('alpha/m1');
    router.clock.advance(10_000);
    const testIt = () => router.chat({ model: 'fcm:@alpha/m1' }, { headers: { 'x-fcm-source': 'test' } });

    upstream.script('alpha/m1', status(500));
    assert.equal((await testIt()).status, 502);
    assert.equal(router.lastEntry().attempts[0]?.role, 'trial');
    const after = router.model('alpha/m1');
    assert.equal(after.state, 'OPEN');
    assert.equal(after.openUntil, before.openUntil, 'the cooldown ends when it would have');
    assert.equal(after.tripCount, before.tripCount);
    assert.equal(after.cooldownMs, before.cooldownMs);
    assert.equal(after.lastFailureKind, 'server_error', 'the failure is still on record');

    upstream.script('alpha/m1', json('back'));
    assert.equal((await testIt()).status, 200);
    assert.equal(router.model('alpha/m1').state, 'CLOSED', 'a success closes it early');
  });
});

test('a dashboard Test once the cooldown ran out is the trial: failing reopens with an escalated cooldown', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    await tripAlpha(router, upstream);
    router.clock.advance(COOLDOWN + 1);
    upstream.script('alpha/m1', status(500));
    await router.chat({ model: 'fcm:@alpha/m1' }, { headers: { 'x-fcm-source': 'test' } });
    const reopened = router.model('alpha/m1');
    assert.equal(reopened.state, 'OPEN');
    assert.equal(reopened.tripCount, 2);
    assert.equal(reopened.cooldownMs, COOLDOWN * 2);
  });
});
