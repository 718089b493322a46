import { test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  BreakerStateName,
  HealthVerdict,
  ModelBlock,
  QuotaPauseView,
  RecentOutcomes,
} from '../../api-types.js';
import { healthVerdict, type VerdictInput } from './health-verdict.js';

const NOW = 1_700_000_000_000;

interface Spec {
  key: string;
  state?: BreakerStateName;
  openUntil?: number | null;
  trialDueAt?: number | null;
  quotaPausedUntil?: number | null;
  blockedBy?: ModelBlock | null;
  quotaPause?: QuotaPauseView | null;
  inActiveSet?: boolean;
}

function model(spec: Spec): VerdictInput['models'][number] {
  return {
    state: 'CLOSED',
    openUntil: null,
    trialDueAt: null,
    quotaPausedUntil: null,
    blockedBy: null,
    inActiveSet: true,
    ...spec,
  };
}

const input = (models: Spec[], paused = false): VerdictInput => ({
  paused,
  activeSet: 'default',
  models: models.map(model),
});

type Expect = Pick<HealthVerdict, 'level' | 'title' | 'action' | 'next'> & {
  reason: RegExp;
  counts?: HealthVerdict['counts'];
  backAt?: number | null;
};

const cases: { name: string; models: Spec[]; paused?: boolean; expect: Expect }[] = [
  {
    name: 'every model CLOSED: green, to the first',
    models: [{ key: 'a/1' }, { key: 'b/2' }],
    expect: {
      level: 'green',
      title: 'routing',
      action: null,
      next: 'a/1',
      reason: /^next request goes to a\/1$/,
      counts: { total: 2, routable: 2, closed: 2, out: 0 },
      backAt: null,
    },
  },
  {
    name: 'paused: red whatever the models, and the way out is to resume',
    models: [{ key: 'a/1' }],
    paused: true,
    expect: { level: 'red', title: 'paused', action: 'resume', next: 'a/1', reason: /paused.*503.*resume/ },
  },
  {
    name: 'paused beside a quota pause: no model is back before routing resumes, so no time is given',
    models: [{ key: 'a/1', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 60_000 }, { key: 'b/2' }],
    paused: true,
    expect: {
      level: 'red',
      title: 'paused',
      action: 'resume',
      next: 'b/2',
      reason: /paused.*503.*resume/,
      backAt: null,
    },
  },
  {
    name: 'an empty set: red, edit the set',
    models: [],
    expect: {
      level: 'red',
      title: 'nothing routable',
      action: 'edit_set',
      next: null,
      reason: /"default" is empty/,
    },
  },
  {
    name: 'no model has a key: red, add one',
    models: [
      { key: 'a/1', blockedBy: 'missing_key' },
      { key: 'b/2', blockedBy: 'missing_key' },
    ],
    expect: {
      level: 'red',
      title: 'nothing routable',
      action: 'add_key',
      next: null,
      reason: /^no model has a key: add one in Providers$/,
      counts: { total: 2, routable: 0, closed: 0, out: 2 },
    },
  },
  {
    name: 'every key refused (some missing): red, replace the keys',
    models: [
      { key: 'a/1', blockedBy: 'auth_error' },
      { key: 'b/2', blockedBy: 'missing_key' },
    ],
    expect: {
      level: 'red',
      title: 'nothing routable',
      action: 'check_keys',
      next: null,
      reason: /refused its key/,
    },
  },
  {
    name: 'every provider switched off: red, enable one',
    models: [{ key: 'a/1', blockedBy: 'provider_disabled' }],
    expect: {
      level: 'red',
      title: 'nothing routable',
      action: 'enable_provider',
      next: null,
      reason: /switched off/,
    },
  },
  {
    name: 'a switched-off provider is not a fault: the rest CLOSED stays green',
    models: [{ key: 'a/1', blockedBy: 'provider_disabled' }, { key: 'b/2' }],
    expect: {
      level: 'green',
      title: 'routing',
      action: null,
      next: 'b/2',
      reason: /b\/2/,
      // Left out of every count: the set's size is the models that count, as in "1 of 1 routable".
      counts: { total: 1, routable: 1, closed: 1, out: 0 },
    },
  },
  {
    name: 'with a provider switched off, the models out are counted among the others only',
    models: [
      { key: 'a/1' },
      { key: 'off/2', blockedBy: 'provider_disabled' },
      { key: 'c/3', state: 'OPEN', openUntil: NOW + 90_000 },
    ],
    expect: {
      level: 'amber',
      title: 'some models out',
      action: 'wait',
      next: 'a/1',
      reason: /^1 of 2 models out \(1 OPEN\); next request goes to a\/1$/,
      counts: { total: 2, routable: 1, closed: 1, out: 1 },
      backAt: NOW + 90_000,
    },
  },
  {
    name: 'CLOSED first but one model OPEN: amber, with its return',
    models: [{ key: 'a/1' }, { key: 'b/2' }, { key: 'c/3', state: 'OPEN', openUntil: NOW + 90_000 }],
    expect: {
      level: 'amber',
      title: 'some models out',
      action: 'wait',
      next: 'a/1',
      reason: /^1 of 3 models out \(1 OPEN\); next request goes to a\/1$/,
      counts: { total: 3, routable: 2, closed: 2, out: 1 },
      backAt: NOW + 90_000,
    },
  },
  {
    name: 'a model of the set without a key: amber, add keys',
    models: [{ key: 'a/1' }, { key: 'groq/x', blockedBy: 'missing_key' }],
    expect: {
      level: 'amber',
      title: 'some models out',
      action: 'add_key',
      next: 'a/1',
      reason: /1 without a key\): add keys/,
    },
  },
  {
    name: 'a model of the set no provider has: amber, named for what it is, check the set',
    models: [{ key: 'a/1' }, { key: 'nope/x', blockedBy: 'unknown_model' }],
    expect: {
      level: 'amber',
      title: 'some models out',
      action: 'edit_set',
      next: 'a/1',
      reason: /1 unknown or removed\): check the set in Models/,
    },
  },
  {
    name: 'only DEGRADED left: amber',
    models: [
      { key: 'a/1', state: 'DEGRADED' },
      { key: 'b/2', state: 'OPEN', openUntil: NOW + 5000 },
    ],
    expect: {
      level: 'amber',
      title: 'degraded',
      action: 'wait',
      next: 'a/1',
      reason: /^next request goes to DEGRADED a\/1 \(1 OPEN\)$/,
      backAt: NOW + 5000,
    },
  },
  {
    name: 'a DEGRADED model whose trial is due takes its place as a trial, not as DEGRADED',
    models: [{ key: 'a/1', state: 'DEGRADED', trialDueAt: NOW - 1 }, { key: 'b/2' }, { key: 'c/3' }],
    expect: {
      level: 'amber',
      title: 'on trial',
      action: null,
      next: 'a/1',
      reason: /^next request goes to a trial of a\/1; 2 CLOSED behind it$/,
    },
  },
  {
    name: 'a DEGRADED model before its trial is due is still DEGRADED',
    models: [
      { key: 'a/1', state: 'DEGRADED', trialDueAt: NOW + 1 },
      { key: 'b/2', state: 'OPEN', openUntil: NOW + 5000 },
    ],
    expect: {
      level: 'amber',
      title: 'degraded',
      action: 'wait',
      next: 'a/1',
      reason: /^next request goes to DEGRADED a\/1 \(1 OPEN\)$/,
    },
  },
  {
    name: 'a trial ahead of a CLOSED model: amber, the trial named',
    models: [{ key: 'a/1', state: 'HALF_OPEN' }, { key: 'b/2' }],
    expect: {
      level: 'amber',
      title: 'on trial',
      action: null,
      next: 'a/1',
      reason: /^next request goes to a trial of a\/1; 1 CLOSED behind it$/,
    },
  },
  {
    name: 'an OPEN model whose cooldown has run out is on trial',
    models: [{ key: 'a/1', state: 'OPEN', openUntil: NOW - 1 }],
    expect: {
      level: 'amber',
      title: 'on trial',
      action: null,
      next: 'a/1',
      reason: /trial of a\/1$/,
      backAt: null,
    },
  },
  {
    name: 'only quota-paused models: amber, 429 until the first pause ends',
    models: [
      { key: 'a/1', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 60_000 },
      { key: 'b/2', blockedBy: 'quota_budget', quotaPausedUntil: NOW + 30_000 },
    ],
    expect: {
      level: 'amber',
      title: 'quota-paused',
      action: 'wait',
      next: null,
      reason: /^every usable model is quota-paused \(2 quota-paused\): agents get 429 until a pause ends$/,
      backAt: NOW + 30_000,
    },
  },
  {
    name: 'quota-paused models and one without a key: agents get 429, and the key is what to add',
    models: [
      { key: 'a/1', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 60_000 },
      { key: 'b/2', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 30_000 },
      { key: 'c/3', blockedBy: 'missing_key' },
    ],
    expect: {
      level: 'amber',
      title: 'quota-paused',
      action: 'add_key',
      next: null,
      reason:
        /^no model can take a request \(2 quota-paused, 1 without a key\): agents get 429 until a pause ends; add keys in Providers, or wait$/,
      backAt: NOW + 30_000,
    },
  },
  {
    name: 'quota-paused models and refused keys: agents get 429, and the keys are what to replace',
    models: [
      { key: 'a/1', blockedBy: 'auth_error' },
      { key: 'b/2', blockedBy: 'auth_error' },
      { key: 'c/3', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 60_000 },
      { key: 'd/4', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 30_000 },
    ],
    expect: {
      level: 'amber',
      title: 'quota-paused',
      action: 'check_keys',
      next: null,
      reason:
        /^no model can take a request \(2 quota-paused, 2 key refused\): agents get 429 until a pause ends; replace the refused keys in Providers, or wait$/,
      backAt: NOW + 30_000,
    },
  },
  {
    name: 'a provider out of credit (402) beside a model paused for a 429: agents get 503, not 429',
    models: [
      { key: 'a/1', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 60_000 },
      {
        key: 'b/2',
        blockedBy: 'quota_paused',
        quotaPausedUntil: NOW + 3_600_000,
        quotaPause: {
          until: NOW + 3_600_000,
          reason: 'payment_required',
          fromProvider: true,
          scope: 'provider',
          repeat: 1,
        },
      },
    ],
    expect: {
      level: 'amber',
      title: 'quota-paused',
      action: 'wait',
      next: null,
      reason: /^every usable model is quota-paused \(2 quota-paused\): agents get 503 until a pause ends$/,
      backAt: NOW + 60_000,
    },
  },
  {
    name: 'quota-paused models beside a provider switched off: agents get 429',
    models: [
      { key: 'a/1', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 60_000 },
      { key: 'b/2', blockedBy: 'provider_disabled' },
    ],
    expect: {
      level: 'amber',
      title: 'quota-paused',
      action: 'wait',
      next: null,
      reason: /^every usable model is quota-paused \(1 quota-paused\): agents get 429 until a pause ends$/,
      backAt: NOW + 60_000,
    },
  },
  {
    name: 'a model paused for a 429 beside one its provider no longer lists: agents get 429',
    models: [
      { key: 'a/1', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 60_000 },
      { key: 'b/2', blockedBy: 'model_vanished' },
    ],
    expect: {
      level: 'amber',
      title: 'quota-paused',
      action: 'edit_set',
      next: null,
      reason:
        /^no model can take a request \(1 quota-paused, 1 unknown or removed\): agents get 429 until a pause ends; check the set in Models, or wait$/,
      backAt: NOW + 60_000,
    },
  },
  {
    name: 'every model OPEN: red, they come back by themselves',
    models: [
      { key: 'a/1', state: 'OPEN', openUntil: NOW + 20_000 },
      { key: 'b/2', blockedBy: 'quota_paused', quotaPausedUntil: NOW + 10_000 },
    ],
    expect: {
      level: 'red',
      title: 'nothing routable',
      action: 'wait',
      next: null,
      reason: /^no model can take a request \(1 OPEN, 1 quota-paused\): they come back by themselves$/,
      backAt: NOW + 10_000,
    },
  },
  {
    name: 'a quota pause that has ended counts as its breaker',
    models: [{ key: 'a/1', blockedBy: 'quota_paused', quotaPausedUntil: NOW }],
    expect: { level: 'green', title: 'routing', action: null, next: 'a/1', reason: /a\/1/ },
  },
  {
    name: 'models outside the active set are ignored',
    models: [{ key: 'x/1', state: 'OPEN', openUntil: NOW + 1000, inActiveSet: false }, { key: 'a/1' }],
    expect: { level: 'green', title: 'routing', action: null, next: 'a/1', reason: /a\/1/, backAt: null },
  },
];

for (const c of cases) {
  test(`health verdict: ${c.name}`, () => {
    const verdict = healthVerdict(input(c.models, c.paused), NOW);
    const { reason, counts, backAt, ...rest } = c.expect;
    assert.deepEqual(
      { level: verdict.level, title: verdict.title, action: verdict.action, next: verdict.next },
      rest,
    );
    assert.match(verdict.reason, reason);
    if (counts) assert.deepEqual(verdict.counts, counts);
    if (backAt !== undefined) assert.equal(verdict.backAt, backAt);
  });
}

const failing = (over: Partial<RecentOutcomes> = {}): RecentOutcomes => ({
  window: 6,
  failedInARow: 6,
  causes: ['network_error'],
  unreachable: true,
  spared: ['a/1', 'b/2'],
  lastAt: NOW - 1000,
  ...over,
});

test('health verdict: every CLOSED model but the last 6 requests unreachable is red, saying why', () => {
  const verdict = healthVerdict({ ...input([{ key: 'a/1' }, { key: 'b/2' }]), recent: failing() }, NOW);
  assert.equal(verdict.level, 'red');
  assert.equal(verdict.title, 'requests failing');
  assert.equal(
    verdict.reason,
    'the last 6 requests failed: no provider reachable (network_error) — check the connection or proxy',
  );
  assert.equal(verdict.action, 'check_network');
  assert.equal(verdict.next, 'a/1', 'the next model is still named');
});

test('health verdict: a refused location names the network, not the keys', () => {
  const recent = failing({ unreachable: false, causes: ['region_refused', 'quota_paused'], spared: [] });
  const verdict = healthVerdict({ ...input([{ key: 'a/1' }]), recent }, NOW);
  assert.equal(verdict.level, 'red');
  assert.equal(
    verdict.reason,
    'the last 6 requests failed: region_refused, quota_paused — a provider does not serve this network location: use another network or a proxy (HTTPS_PROXY)',
  );
  assert.equal(verdict.action, 'check_network');
});

test('health verdict: requests the proxy refused name the proxy, not the connection', () => {
  const recent = failing({ unreachable: false, causes: ['proxy_refused'], spared: [] });
  const verdict = healthVerdict({ ...input([{ key: 'a/1' }]), recent }, NOW);
  assert.equal(verdict.level, 'red');
  assert.equal(
    verdict.reason,
    'the last 6 requests failed: the proxy refused them (proxy_refused) — check its address and credentials in HTTPS_PROXY',
  );
  assert.equal(verdict.action, 'check_network');
});

test('health verdict: fewer failures than the window leave the state verdict as it is', () => {
  const verdict = healthVerdict({ ...input([{ key: 'a/1' }]), recent: failing({ failedInARow: 5 }) }, NOW);
  assert.equal(verdict.level, 'green');
});

test('health verdict: paused stays paused whatever the requests got', () => {
  const verdict = healthVerdict({ ...input([{ key: 'a/1' }], true), recent: failing() }, NOW);
  assert.equal(verdict.title, 'paused');
});

test('health verdict: a red state verdict keeps its more precise words unless nothing was reachable', () => {
  const noKeys = input([{ key: 'a/1', blockedBy: 'missing_key' }]);
  const refused = failing({ unreachable: false, causes: ['missing_key'] });
  assert.equal(healthVerdict({ ...noKeys, recent: refused }, NOW).action, 'add_key');
  const tripped = input([{ key: 'a/1', state: 'OPEN', openUntil: NOW + 60_000 }]);
  assert.match(healthVerdict({ ...tripped, recent: failing() }, NOW).reason, /no provider reachable/);
});

test('health verdict: failures of the models tried name their kinds, most frequent first', () => {
  const recent = failing({
    unreachable: false,
    causes: ['server_error', 'empty_content', 'timeout', 'stream_stall'],
  });
  const verdict = healthVerdict({ ...input([{ key: 'a/1' }]), recent }, NOW);
  assert.equal(verdict.level, 'red');
  assert.equal(
    verdict.reason,
    'the last 6 requests failed: every model tried failed them (server_error, empty_content, timeout) — see Requests for each attempt',
  );
  const limited = failing({ unreachable: false, causes: ['rate_limit'] });
  assert.equal(healthVerdict({ ...input([{ key: 'a/1' }]), recent: limited }, NOW).action, 'wait');
  const keys = failing({ unreachable: false, causes: ['auth_error', 'network_error'] });
  assert.equal(healthVerdict({ ...input([{ key: 'a/1' }]), recent: keys }, NOW).action, 'check_keys');
  const fault = failing({ unreachable: false, causes: ['internal_error'] });
  assert.match(
    healthVerdict({ ...input([{ key: 'a/1' }]), recent: fault }, NOW).reason,
    /fault in the router/,
  );
});

test("health verdict: a streak of requests the models refused as the requests' own fault is amber, saying so", () => {
  const models = input([{ key: 'a/1' }]);
  const refusals = failing({ unreachable: false, causes: ['invalid_request', 'context_length'] });
  const verdict = healthVerdict({ ...models, recent: refusals }, NOW);
  assert.deepEqual([verdict.level, verdict.title, verdict.action], ['amber', 'requests refused', null]);
  assert.equal(
    verdict.reason,
    'the last 6 requests failed: the models refused them (invalid_request, context_length) — the requests are at fault, not the models: the errors the agent got say why',
  );
  // One cause that is a model's makes the streak the set's: red, as before.
  const mixed = failing({ unreachable: false, causes: ['invalid_request', 'server_error'] });
  const red = healthVerdict({ ...models, recent: mixed }, NOW);
  assert.deepEqual([red.level, red.title], ['red', 'requests failing']);
  // A state already red keeps its more precise words.
  const noKeys = input([{ key: 'a/1', blockedBy: 'missing_key' }]);
  assert.equal(healthVerdict({ ...noKeys, recent: refusals }, NOW).action, 'add_key');
});
