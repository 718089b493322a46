import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigInput } from '../../config/schema.js';
import { startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { scenarioConfig, withScenario } from '../../test-support/scenario.js';
import { TestClock } from '../../test-support/test-clock.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UsageResponse } from '../../api-types.js';
import { parseReply } from '../../test-support/http-client.js';
import { json, jsonBody, reset } from '../../test-support/upstream-behaviours.js';
import { completion } from '../../test-support/upstream-frames.js';

type Limits = NonNullable<NonNullable<ConfigInput['providers']>[string]['limits']>;

/** alpha/m1 with `limits`, then beta/m2 without any; both answer well unless scripted otherwise. */
function budgetConfig(upstream: FakeUpstream, limits: Limits): ConfigInput {
  const config = scenarioConfig(upstream, { providers: { alpha: ['m1'], beta: ['m2'] } });
  const alpha = config.providers?.['alpha'];
  assert.ok(alpha);
  config.providers = { ...config.providers, alpha: { ...alpha, limits } };
  return config;
}

async function withBudget(
  limits: Limits,
  run: (router: RouterHarness, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  let router: RouterHarness | null = null;
  try {
    router = await startHarness({ config: budgetConfig(upstream, limits) });
    upstream.always('alpha/m1', json('alpha')).always('beta/m2', json('beta'));
    await run(router, upstream);
  } finally {
    await router?.close();
    await upstream.close();
  }
}

test('a model at its requests-per-minute budget is skipped before the upstream’s 429, until the minute is over', async () => {
  await withBudget({ rpm: 2 }, async (router, upstream) => {
    for (let i = 0; i < 2; i += 1) assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    const third = await router.chat();
    assert.equal(third.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1');
    assert.deepEqual(router.lastEntry().skipped, [{ model: 'alpha/m1', reason: 'quota_budget' }]);
    assert.equal(upstream.callsTo('alpha/m1').length, 2, 'the third request never reached alpha');
    const view = router.model('alpha/m1');
    assert.equal(view.blockedBy, 'quota_budget');
    assert.ok(view.quotaPausedUntil !== null && view.quotaPausedUntil > router.clock.now());

    router.clock.advance(60_000);
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
  });
});

test('a model near its budget ranks behind the others', async () => {
  await withBudget({ rpd: 5 }, async (router) => {
    for (let i = 0; i < 4; i += 1) assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    // 4 of 5 used: near the limit, so beta (later in the set) goes first.
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=0');
    assert.equal(router.model('alpha/m1').blockedBy, null, 'near is not at: the model is still routable');
  });
});

test('a provider’s rate-limit headers correct the count and hold a spent budget until its reset', async () => {
  await withBudget({ rpd: 1000 }, async (router, upstream) => {
    const spent = { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '30s' };
    upstream.script('alpha/m1', jsonBody(completion('alpha'), 200, spent));
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    const next = await router.chat();
    assert.equal(next.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1');
    assert.deepEqual(router.lastEntry().skipped, [{ model: 'alpha/m1', reason: 'quota_budget' }]);
    router.clock.advance(31_000);
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');

    // 996 of 1000 used today by the provider's count: near, so behind beta.
    const left = { 'x-ratelimit-remaining-requests': '4', 'x-ratelimit-reset-requests': '10h' };
    upstream.script('alpha/m1', jsonBody(completion('alpha'), 200, left));
    router.clock.advance(1000);
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2');
  });
});

test('a provider without configured limits is held by its own "nothing left" headers until their reset', async () => {
  await withScenario({ providers: { alpha: ['m1'], beta: ['m2'] } }, async ({ router, upstream }) => {
    upstream.always('beta/m2', json('beta'));
    for (const kind of ['requests', 'tokens']) {
      const spent = { [`x-ratelimit-remaining-${kind}`]: '0', [`x-ratelimit-reset-${kind}`]: '60s' };
      upstream.script('alpha/m1', jsonBody(completion('alpha'), 200, spent));
      upstream.always('alpha/m1', json('alpha'));
      assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1', kind);
      const held = await router.chat();
      assert.equal(held.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1', kind);
      assert.deepEqual(router.lastEntry().skipped, [{ model: 'alpha/m1', reason: 'quota_budget' }]);
      assert.equal(router.model('alpha/m1').blockedBy, 'quota_budget');
      router.clock.advance(59_000);
      assert.equal(
        (await router.chat()).headers['x-fcm-v2-model'],
        'beta/m2',
        `${kind}: held until the reset`,
      );
      router.clock.advance(1_000);
      assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1', `${kind}: back at the reset`);
    }
    // Headers that leave something are no hold.
    upstream.script(
      'alpha/m1',
      jsonBody(completion('alpha'), 200, { 'x-ratelimit-remaining-requests': '3' }),
    );
    await router.chat();
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
  });
});

test('budget counts survive a restart', async () => {
  const upstream = await startFakeUpstream();
  const clock = new TestClock();
  const config = budgetConfig(upstream, { rpd: 2 });
  upstream.always('alpha/m1', json('alpha')).always('beta/m2', json('beta'));
  const first = await startHarness({ config, clock });
  let second: RouterHarness | null = null;
  try {
    for (let i = 0; i < 2; i += 1) assert.equal((await first.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    await first.stop();
    second = await startHarness({ config, clock, dir: first.dir });
    const reply = await second.chat();
    assert.equal(reply.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1');
    assert.equal(second.model('alpha/m1').blockedBy, 'quota_budget');
    clock.advance(24 * 3_600_000);
    assert.equal((await second.chat()).headers['x-fcm-v2-model'], 'alpha/m1', 'a new day, a new budget');
  } finally {
    await (second ?? first).close();
    await upstream.close();
  }
});

test('with every model at its budget the agent gets 429 rate_limit_exceeded and when to come back', async () => {
  const upstream = await startFakeUpstream();
  const config = { ...budgetConfig(upstream, { rpm: 1 }), sets: { main: ['alpha/m1'] }, activeSet: 'main' };
  const router = await startHarness({ config });
  try {
    upstream.always('alpha/m1', json('alpha'));
    assert.equal((await router.chat()).status, 200);
    const refused = await router.chat();
    assert.equal(refused.status, 429);
    assert.match(refused.text, /rate_limit_exceeded/);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} s: the minute's end`);
    // Codex reads its wait from these words.
    assert.match(refused.text, new RegExp(`try again in ${retryAfter}s`));
    assert.equal(upstream.callsTo('alpha/m1').length, 1);
  } finally {
    await router.close();
    await upstream.close();
  }
});

test('the minute slides: 2 RPM with requests at 0:59 and 1:01 skips a third at 1:02 until 1:59, across a restart', async () => {
  const upstream = await startFakeUpstream();
  const clock = new TestClock();
  const config = budgetConfig(upstream, { rpm: 2 });
  upstream.always('alpha/m1', json('alpha')).always('beta/m2', json('beta'));
  /** Moves the clock to `seconds` past the minute the test starts in. */
  const minuteStart = clock.now() - (clock.now() % 60_000);
  const at = (seconds: number): void => clock.advance(minuteStart + seconds * 1000 - clock.now());
  const first = await startHarness({ config, clock });
  let second: RouterHarness | null = null;
  try {
    at(59);
    const firstAt = clock.now();
    assert.equal((await first.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    const firstDone = clock.now();
    at(61);
    assert.equal((await first.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    at(62);
    const third = await first.chat();
    assert.equal(third.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1');
    assert.deepEqual(first.lastEntry().skipped, [{ model: 'alpha/m1', reason: 'quota_budget' }]);
    // Usable again when the 0:59 request is a minute old (the clock also moves with real time).
    const resume = first.model('alpha/m1').quotaPausedUntil ?? 0;
    assert.ok(
      resume >= firstAt + 60_000 && resume <= firstDone + 60_000,
      `resume at ${resume - minuteStart} ms`,
    );

    await first.stop();
    second = await startHarness({ config, clock, dir: first.dir });
    at(118.5);
    assert.ok(clock.now() < resume, 'just before 1:59');
    assert.equal((await second.chat()).headers['x-fcm-v2-model'], 'beta/m2', 'the restart kept the minute');
    assert.equal(second.model('alpha/m1').blockedBy, 'quota_budget');
    clock.advance(resume - clock.now());
    assert.equal((await second.chat()).headers['x-fcm-v2-model'], 'alpha/m1', 'one slot slid out at 1:59');
    assert.equal(
      (await second.chat()).headers['x-fcm-v2-model'],
      'beta/m2',
      'and only one: 1:01 still counts',
    );
    assert.equal(upstream.callsTo('alpha/m1').length, 3);
  } finally {
    await (second ?? first).close();
    await upstream.close();
  }
});

/** A loopback URL nothing listens on: a connection to it is refused. */
async function refusingUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

function alphaDayRequests(usage: UsageResponse): number | undefined {
  return usage.budgets.find((row) => row.model === 'alpha/m1')?.dayRequests;
}

test('an attempt whose connection was refused takes back its budget count: the provider never saw it', async () => {
  const upstream = await startFakeUpstream();
  let router: RouterHarness | null = null;
  try {
    const config = budgetConfig(upstream, { rpd: 2 });
    const alpha = config.providers?.['alpha'];
    assert.ok(alpha);
    config.providers = { ...config.providers, alpha: { ...alpha, baseUrl: await refusingUrl() } };
    router = await startHarness({ config });
    upstream.always('beta/m2', json('beta'));
    for (let i = 0; i < 2; i += 1) {
      const reply = await router.chat();
      assert.equal(
        reply.headers['x-fcm-v2-decision'],
        'beta/m2!served|alpha/m1:network_error->beta/m2:200|skips=0',
      );
    }
    const usage = parseReply<UsageResponse>(await router.get('/api/usage'));
    assert.equal(alphaDayRequests(usage), 0, 'two refused attempts, nothing spent of the 2 a day');
    assert.notEqual(router.model('alpha/m1').blockedBy, 'quota_budget');
  } finally {
    await router?.close();
    await upstream.close();
  }
});

test('an attempt that reached the provider before its connection broke keeps its count', async () => {
  await withBudget({ rpd: 2 }, async (router, upstream) => {
    upstream.always('alpha/m1', reset());
    const reply = await router.chat();
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:network_error->beta/m2:200|skips=0',
    );
    assert.equal(upstream.callsTo('alpha/m1').length, 1);
    const usage = parseReply<UsageResponse>(await router.get('/api/usage'));
    assert.equal(alphaDayRequests(usage), 1);
  });
});
