import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ioTurns } from '../../test-support/deferred.js';
import { deadUrl, UNRESOLVABLE_URL, unreachableProviders } from '../../test-support/fake-upstream.js';
import { hang, json, partialBody, reset, status } from '../../test-support/upstream-behaviours.js';
import { parseReply } from '../../test-support/http-client.js';
import { type RouterHarness } from '../../test-support/router-harness.js';
import { withScenario } from '../../test-support/scenario.js';

const HOUR = 3_600_000;

function skipReasons(router: RouterHarness): string[] {
  return router.lastEntry().skipped.map((skip) => `${skip.model}:${skip.reason}`);
}

const AUTH_SET = { providers: { alpha: ['m1', 'm2'], beta: ['m1'] } };

test('401 blocks the whole provider: siblings skipped as auth_error now and later, no health damage', async () => {
  await withScenario(AUTH_SET, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(401)).always('beta/m1', json('from beta'));
    const first = await router.chat();
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-fcm-v2-decision'], 'beta/m1!served|alpha/m1:401->beta/m1:200|skips=1');
    assert.deepEqual(skipReasons(router), ['alpha/m2:auth_error']);

    const second = await router.chat();
    assert.equal(second.headers['x-fcm-v2-decision'], 'beta/m1!served|beta/m1:200|skips=2');
    assert.deepEqual(skipReasons(router), ['alpha/m1:auth_error', 'alpha/m2:auth_error']);
    assert.equal(upstream.callsTo('alpha/m1').length + upstream.callsTo('alpha/m2').length, 1);

    for (const key of ['alpha/m1', 'alpha/m2']) {
      const view = router.model(key);
      assert.equal(view.authBlocked, true);
      assert.equal(view.state, 'CLOSED');
      assert.equal(view.consecutiveFailures, 0);
    }
  });
});

test('a 403 block lifts when the key changes through PUT /api/config', async () => {
  await withScenario(AUTH_SET, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(403), json('alpha again')).always('beta/m1', json('from beta'));
    await router.chat();
    assert.equal(router.model('alpha/m1').authBlocked, true);
    const current = parseReply<{ config: { providers: Record<string, Record<string, unknown>> } }>(
      await router.get('/api/config'),
    ).config;
    current.providers.alpha = { ...current.providers.alpha, apiKey: 'sk-test-alpha-new' };
    const saved = await router.api('PUT', '/api/config', current);
    assert.equal(saved.status, 200, saved.text);
    assert.equal(router.model('alpha/m1').authBlocked, false);
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.equal(upstream.callsTo('alpha/m1')[1]?.headers.authorization, 'Bearer sk-test-alpha-new');
  });
});

test('a 401 block lifts with POST /api/providers/key, and after a pinned call succeeds', async () => {
  await withScenario(AUTH_SET, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(401), json('new key works'), status(401));
    upstream.always('alpha/m2', json('pinned works')).always('beta/m1', json('from beta'));
    await router.chat();
    const keyed = await router.api('POST', '/api/providers/key', {
      provider: 'alpha',
      apiKey: 'sk-test-alpha-2',
    });
    assert.equal(keyed.status, 200, keyed.text);
    const afterKey = await router.chat();
    assert.equal(afterKey.headers['x-fcm-v2-model'], 'alpha/m1');

    await router.chat();
    assert.equal(router.model('alpha/m2').authBlocked, true);
    const pinned = await router.chat({ model: 'fcm:@alpha/m2' });
    assert.equal(pinned.headers['x-fcm-v2-decision'], 'alpha/m2!served|alpha/m2:200|skips=0');
    assert.equal(router.model('alpha/m1').authBlocked, false);
  });
});

test('402 pauses the whole provider for an hour', async () => {
  await withScenario(AUTH_SET, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(402)).always('beta/m1', json('from beta'));
    upstream.always('alpha/m2', json('alpha m2'));
    const before = router.clock.now();
    await router.chat();
    assert.deepEqual(skipReasons(router), ['alpha/m2:quota_paused']);
    const paused = router.model('alpha/m2').quotaPausedUntil;
    assert.ok(paused !== null && Math.abs(paused - (before + HOUR)) < 1000, `paused until ${paused}`);
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);

    router.clock.advance(HOUR - 60_000);
    await router.chat();
    assert.equal(router.lastEntry().servedModel, 'beta/m1');
    router.clock.advance(61_000);
    upstream.script('alpha/m1', json('credit is back'));
    const back = await router.chat();
    assert.equal(back.headers['x-fcm-v2-model'], 'alpha/m1');
  });
});

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };

for (const [label, retryAfter, expectedMs] of [
  ['seconds', '120', 120_000],
  ['an HTTP date', 'date:300', 300_000],
  ['none (60 s default)', null, 60_000],
  ['too long (capped at 15 min)', '99999', 900_000],
] as const) {
  test(`429 with Retry-After ${label}: the model is paused, skipped as quota_paused, no breaker damage`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      const now = router.clock.now();
      const header =
        retryAfter === null
          ? undefined
          : retryAfter.startsWith('date:')
            ? new Date(now + Number(retryAfter.slice(5)) * 1000).toUTCString()
            : retryAfter;
      upstream.script('alpha/m1', status(429, header === undefined ? {} : { retryAfter: header }));
      upstream.always('beta/m2', json('from beta'));
      await router.chat();
      const alpha = router.model('alpha/m1');
      assert.equal(alpha.consecutiveFailures, 0);
      assert.equal(alpha.state, 'CLOSED');
      assert.deepEqual(
        [alpha.stats.attempts, alpha.stats.successRate],
        [0, null],
        'a 429 is the key’s limit: the model’s success rate is about its answers',
      );
      assert.ok(alpha.quotaPausedUntil !== null);
      assert.ok(
        Math.abs(alpha.quotaPausedUntil - now - expectedMs) < 2000,
        `pause ${alpha.quotaPausedUntil - now} ms`,
      );

      await router.chat();
      assert.deepEqual(skipReasons(router), ['alpha/m1:quota_paused']);
      assert.equal(upstream.callsTo('alpha/m1').length, 1);

      router.clock.advance(expectedMs + 1000);
      upstream.script('alpha/m1', json('rested'));
      const back = await router.chat();
      assert.equal(back.headers['x-fcm-v2-model'], 'alpha/m1');
      assert.equal(router.model('alpha/m1').quotaPausedUntil, null);
    });
  });
}

test('upstream 404 is model_not_found and counts against the model', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(404)).always('beta/m2', json('ok'));
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-decision'], 'beta/m2!served|alpha/m1:404->beta/m2:200|skips=0');
    assert.equal(router.lastEntry().attempts[0]?.kind, 'model_not_found');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
  });
});

for (const code of [400, 413, 422]) {
  test(`upstream ${code} fails over but leaves the breaker alone`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', status(code)).always('beta/m2', json('ok'));
      const reply = await router.chat();
      assert.equal(
        reply.headers['x-fcm-v2-decision'],
        `beta/m2!served|alpha/m1:${code}->beta/m2:200|skips=0`,
      );
      assert.equal(router.lastEntry().attempts[0]?.kind, 'invalid_request');
      assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
      assert.equal(router.model('alpha/m1').lastFailureKind, null);
    });
  });
}

test('a lone 400 reaches the client with the upstream status', async () => {
  await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(422));
    const reply = await router.chat();
    assert.equal(reply.status, 422);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:422|skips=0');
  });
});

/** `waitMs`: how long the router waits, on its clock, once it has what the upstream sent. */
for (const [label, behaviour, kind, failover, waitMs] of [
  ['no headers within requestTimeoutMs', hang, 'timeout', { requestTimeoutMs: 500 }, 500],
  [
    'a body unfinished within bodyReadTimeoutMs',
    partialBody,
    'body_timeout',
    { bodyReadTimeoutMs: 500 },
    500,
  ],
  ['a socket reset', reset, 'network_error', {}, 0],
  ['a 500', () => status(500), 'server_error', {}, 0],
  ['a 503', () => status(503), 'server_error', {}, 0],
  ['a 529', () => status(529), 'overloaded', {}, 0],
] as const) {
  test(`${label} is ${kind}: fails over and counts against the model`, async () => {
    await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
      upstream.script('alpha/m1', behaviour()).always('beta/m2', json('ok'));
      const pending = router.chat();
      await upstream.nextCall('alpha/m1');
      await ioTurns();
      router.clock.advance(waitMs);
      const reply = await pending;
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['x-fcm-v2-model'], 'beta/m2');
      assert.equal(router.lastEntry().attempts[0]?.kind, kind);
      assert.equal(router.lastEntry().attempts[0]?.latencyMs, waitMs);
      const alpha = router.model('alpha/m1');
      assert.equal(alpha.consecutiveFailures, 1);
      assert.equal(alpha.lastFailureKind, kind);
    });
  });
}

test('a name that does not resolve is network_error and counts when another provider answers', async () => {
  const options = {
    providers: { beta: ['m2'] },
    extraProviders: { gone: { baseUrl: `${UNRESOLVABLE_URL}/gone`, models: ['m0'] } },
    sets: { main: ['gone/m0', 'beta/m2'] },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('beta/m2', json('ok'));
    const reply = await router.chat();
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|gone/m0:network_error->beta/m2:200|skips=0',
    );
    assert.equal(router.model('gone/m0').consecutiveFailures, 1);
  });
});

test('offline rule: network errors on every attempt across two providers do no health damage', async () => {
  const options = {
    providers: {},
    extraProviders: await unreachableProviders(),
    sets: { main: ['gone/m0', 'lost/m1'] },
  };
  await withScenario(options, async ({ router }) => {
    const reply = await router.chat();
    assert.equal(reply.status, 502);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'none!all_failed|gone/m0:network_error->lost/m1:network_error|skips=0',
    );
    assert.equal(router.model('gone/m0').consecutiveFailures, 0);
    assert.equal(router.model('lost/m1').consecutiveFailures, 0);
  });
});

test('network errors on a single provider still count (it is that provider, not the network)', async () => {
  const options = {
    providers: {},
    extraProviders: { gone: { baseUrl: `${UNRESOLVABLE_URL}/gone`, models: ['m0', 'm1'] } },
    sets: { main: ['gone/m0', 'gone/m1'] },
  };
  await withScenario(options, async ({ router }) => {
    await router.chat();
    assert.equal(router.model('gone/m0').consecutiveFailures, 1);
    assert.equal(router.model('gone/m1').consecutiveFailures, 1);
  });
});

test('local servers that are not running are blamed, though every attempt failed on the network', async () => {
  // Two model servers on this machine (an Ollama, an LM Studio), neither running: connections refused.
  const dead = await deadUrl();
  const options = {
    providers: {},
    extraProviders: {
      ollama: { baseUrl: `${dead}/ollama`, models: ['m0'] },
      lmstudio: { baseUrl: `${dead}/lmstudio`, models: ['m1'] },
    },
    sets: { main: ['ollama/m0', 'lmstudio/m1'] },
  };
  await withScenario(options, async ({ router }) => {
    assert.equal((await router.chat()).status, 502);
    for (const key of ['ollama/m0', 'lmstudio/m1']) {
      const model = router.model(key);
      assert.deepEqual(
        [model.consecutiveFailures, model.lastFailureKind, model.stats.attempts, model.stats.successes],
        [1, 'network_error', 1, 0],
        key,
      );
    }
    assert.deepEqual(
      router.lastEntry().attempts.map((attempt) => attempt.local),
      [true, true],
      'the history says where they were',
    );
  });
});

test('beside a local server that is not running, the offline rule still spares the providers off this machine', async () => {
  const dead = await deadUrl();
  const options = {
    providers: {},
    extraProviders: { ...(await unreachableProviders()), ollama: { baseUrl: `${dead}/v1`, models: ['m2'] } },
    sets: { main: ['ollama/m2', 'gone/m0', 'lost/m1'] },
  };
  await withScenario(options, async ({ router }) => {
    assert.equal((await router.chat()).status, 502);
    assert.equal(router.model('ollama/m2').consecutiveFailures, 1, 'the local server is not running');
    assert.equal(router.model('gone/m0').consecutiveFailures, 0, 'the machine is offline');
    assert.equal(router.model('lost/m1').consecutiveFailures, 0);
  });
});

test('when every attempt is a 429, the answer is 429 with the Retry-After the upstreams asked for', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(429, { retryAfter: '200' }));
    upstream.script('beta/m2', status(429, { retryAfter: '120' }));
    const reply = await router.chat();
    assert.equal(reply.status, 429);
    const { error } = parseReply<{ error: { code: string; message: string } }>(reply);
    assert.equal(error.code, 'rate_limit_exceeded');
    const retryAfter = Number(reply.headers['retry-after']);
    assert.ok(Math.abs(retryAfter - 120) <= 2, `retry-after ${retryAfter}`);
    assert.match(error.message, new RegExp(`try again in ${retryAfter}s$`));
  });
});
