import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, type ConfigIssue } from './schema.js';

function issuesOf(value: unknown): ConfigIssue[] {
  const result = parseConfig(value);
  assert.equal(result.ok, false, 'the value should not validate');
  return result.ok ? [] : result.issues;
}

const failover = (settings: Record<string, unknown>) => ({ router: { failover: settings } });
const breaker = (settings: Record<string, unknown>) => ({ router: { breaker: settings } });

const cases: { name: string; config: unknown; issues: ConfigIssue[] }[] = [
  {
    name: 'an order no set has',
    config: {
      sets: { main: ['a/m'] },
      activeSet: 'main',
      router: { ranking: { order: { main: 'quickest' } } },
    },
    issues: [{ path: 'router.ranking.order.main', message: 'one of priority or fastest' }],
  },
  {
    name: 'an order for a set that does not exist',
    config: {
      sets: { main: ['a/m'] },
      activeSet: 'main',
      router: { ranking: { order: { other: 'fastest' } } },
    },
    issues: [{ path: 'router.ranking.order.other', message: 'names no set' }],
  },
  {
    name: 'an active set named without sets (the one set is then "default")',
    config: { activeSet: 'nope' },
    issues: [
      {
        path: 'activeSet',
        message:
          'names no set: without "sets" the one set is "default" (write "default", or add the set to "sets")',
      },
    ],
  },
  {
    name: 'an active set named with no sets in "sets"',
    config: { sets: {}, activeSet: 'main' },
    issues: [
      {
        path: 'activeSet',
        message:
          'names no set: without "sets" the one set is "default" (write "default", or add the set to "sets")',
      },
    ],
  },
  {
    name: 'an active set that is not one of the sets',
    config: { sets: { main: ['a/m'] }, activeSet: 'nope' },
    issues: [{ path: 'activeSet', message: 'names no set (the sets are: main)' }],
  },
  {
    name: 'an exploration share too large',
    config: { router: { ranking: { exploration: 0.9 } } },
    issues: [{ path: 'router.ranking.exploration', message: 'a share of requests from 0 to 0.5' }],
  },
  {
    name: 'a probe budget of zero and an idle interval too short',
    config: { providers: { groq: { probe: { enabled: true, dailyBudget: 0, idleIntervalMs: 10 } } } },
    issues: [
      {
        path: 'providers.groq.probe.idleIntervalMs',
        message: 'a whole number of milliseconds, at least 60000',
      },
      { path: 'providers.groq.probe.dailyBudget', message: 'a whole number of probes, at least 1' },
    ],
  },
  {
    name: 'a day time zone no runtime knows, and one given as a number',
    config: { providers: { googleai: { dayTimeZone: 'Pacific Time' }, groq: { dayTimeZone: -8 } } },
    issues: [
      {
        path: 'providers.googleai.dayTimeZone',
        message: 'must be a time zone such as America/Los_Angeles or UTC (an IANA name)',
      },
      { path: 'providers.groq.dayTimeZone', message: 'text (a JSON string)' },
    ],
  },
  {
    name: 'a fraction of a millisecond',
    config: failover({ requestTimeoutMs: 1500.5 }),
    issues: [
      { path: 'router.failover.requestTimeoutMs', message: 'a whole number of milliseconds, at least 500' },
    ],
  },
  {
    name: 'a timeout below its minimum',
    config: failover({ totalBudgetMs: 20 }),
    issues: [
      { path: 'router.failover.totalBudgetMs', message: 'a whole number of milliseconds, at least 500' },
    ],
  },
  {
    name: 'too many attempts',
    config: failover({ maxAttempts: 99 }),
    issues: [{ path: 'router.failover.maxAttempts', message: 'a whole number of attempts, at most 20' }],
  },
  {
    name: 'a number typed as text',
    config: breaker({ failureThreshold: '3' }),
    issues: [{ path: 'router.breaker.failureThreshold', message: 'a whole number of failures, at least 1' }],
  },
  {
    name: 'a ratio out of range',
    config: breaker({ degradedRatio: 2 }),
    issues: [
      { path: 'router.breaker.degradedRatio', message: 'a share of the failure threshold from 0.1 to 1' },
    ],
  },
  {
    name: 'an unknown validation mode',
    config: failover({ contentValidation: 'paranoid' }),
    issues: [{ path: 'router.failover.contentValidation', message: 'one of strict, basic or off' }],
  },
  {
    name: 'a last-resort model without a provider',
    config: failover({ lastResortModel: 'gpt-4' }),
    issues: [
      {
        path: 'router.failover.lastResortModel',
        message: 'a model: name one as provider/modelId, e.g. groq/llama-3.3-70b-versatile',
      },
    ],
  },
  {
    name: 'a hedge delay that is neither auto nor a number',
    config: failover({ hedgeAfterMs: 'soon' }),
    issues: [
      {
        path: 'router.failover.hedgeAfterMs',
        message: '"auto", a whole number of milliseconds (at least 100), or null',
      },
    ],
  },
  {
    name: 'a hedge delay too short',
    config: failover({ hedgeAfterMs: 5 }),
    issues: [
      { path: 'router.failover.hedgeAfterMs', message: 'a whole number of milliseconds, at least 100' },
    ],
  },
  {
    name: 'a hedge delay not below the request timeout',
    config: failover({ hedgeAfterMs: 15_000 }),
    issues: [{ path: 'router.failover.hedgeAfterMs', message: 'below the request timeout (15000 ms)' }],
  },
  {
    name: 'a cooldown cap below the initial cooldown',
    config: breaker({ initialCooldownMs: 60_000, maxCooldownMs: 10_000 }),
    issues: [{ path: 'router.breaker.maxCooldownMs', message: 'at least the initial cooldown (60000 ms)' }],
  },
  {
    name: 'a switch given as text, and an empty provider name',
    config: { providers: { groq: { enabled: 'yes', name: '' } } },
    issues: [
      { path: 'providers.groq.name', message: 'must not be empty' },
      { path: 'providers.groq.enabled', message: 'true or false' },
    ],
  },
  {
    name: 'a misspelt key',
    config: failover({ maxAtempts: 3 }),
    issues: [{ path: 'router.failover.maxAtempts', message: 'unknown key' }],
  },
];

for (const c of cases) {
  test(`config errors in plain words: ${c.name}`, () => {
    assert.deepEqual(issuesOf(c.config), c.issues);
  });
}

test('no message is the schema library’s own wording', () => {
  const all = cases.flatMap((c) => issuesOf(c.config));
  for (const issue of all) assert.doesNotMatch(issue.message, /Expected|received|Invalid|Number must/);
});

test('a config without sets may name "default", the one set it then has, as the active set', () => {
  for (const config of [{ activeSet: 'default' }, { sets: {}, activeSet: 'default' }, {}]) {
    const parsed = parseConfig(config);
    assert.ok(parsed.ok, JSON.stringify(config));
    assert.equal(parsed.config.activeSet, 'default');
  }
});
