import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breakerChangesAt, breakerStanding, type BreakerView } from './breaker-standing.js';

const NOW = 1_000_000;

const breaker = (over: Partial<BreakerView>): BreakerView => ({
  state: 'CLOSED',
  openUntil: null,
  trialDueAt: null,
  ...over,
});

const CASES: { what: string; breaker: BreakerView; standing: string; changesAt: number | null }[] = [
  { what: 'CLOSED', breaker: breaker({}), standing: 'closed', changesAt: null },
  {
    what: 'CLOSED, stray times',
    breaker: breaker({ openUntil: NOW + 5, trialDueAt: NOW + 5 }),
    standing: 'closed',
    changesAt: null,
  },
  {
    what: 'DEGRADED, trial later',
    breaker: breaker({ state: 'DEGRADED', trialDueAt: NOW + 3000 }),
    standing: 'degraded',
    changesAt: NOW + 3000,
  },
  {
    what: 'DEGRADED, trial due now',
    breaker: breaker({ state: 'DEGRADED', trialDueAt: NOW }),
    standing: 'trial',
    changesAt: null,
  },
  {
    what: 'DEGRADED, no trial time',
    breaker: breaker({ state: 'DEGRADED' }),
    standing: 'degraded',
    changesAt: null,
  },
  { what: 'HALF_OPEN', breaker: breaker({ state: 'HALF_OPEN' }), standing: 'trial', changesAt: null },
  {
    what: 'OPEN, cooling',
    breaker: breaker({ state: 'OPEN', openUntil: NOW + 1 }),
    standing: 'open',
    changesAt: NOW + 1,
  },
  {
    what: 'OPEN, cooldown over',
    breaker: breaker({ state: 'OPEN', openUntil: NOW }),
    standing: 'trial',
    changesAt: null,
  },
  {
    what: 'OPEN, no cooldown end',
    breaker: breaker({ state: 'OPEN' }),
    standing: 'open',
    changesAt: null,
  },
  {
    what: 'OPEN, its trial time is not its change',
    breaker: breaker({ state: 'OPEN', openUntil: NOW + 9000, trialDueAt: NOW + 10 }),
    standing: 'open',
    changesAt: NOW + 9000,
  },
];

test('a breaker’s standing and when it next changes by time alone', () => {
  for (const { what, breaker: view, standing, changesAt } of CASES) {
    assert.equal(breakerStanding(view, NOW), standing, what);
    assert.equal(breakerChangesAt(view, NOW), changesAt, what);
  }
});

test('a breaker’s standing at the moment it says it changes is another one', () => {
  for (const { what, breaker: view } of CASES) {
    const at = breakerChangesAt(view, NOW);
    if (at !== null) assert.notEqual(breakerStanding(view, at), breakerStanding(view, NOW), what);
  }
});
