import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dueProbes, probeAllowed, type ProbeCandidate } from './probe-plan.js';

const SETTINGS = { enabled: true, dailyBudget: 10, idleIntervalMs: 60_000 };

function candidate(key: string, local: boolean, state: ProbeCandidate['state']): ProbeCandidate {
  const [provider = ''] = key.split('/');
  return {
    key,
    provider,
    settings: SETTINGS,
    state,
    trialBusy: false,
    local,
    blocked: false,
    lastActivityAt: null,
  };
}

test('a model on this machine may be probed online or not; one off it only online', () => {
  assert.equal(probeAllowed(true, false), true);
  assert.equal(probeAllowed(true, true), true);
  assert.equal(probeAllowed(false, true), true);
  assert.equal(probeAllowed(false, false), false);
});

test('offline, the plan keeps the trials and idle probes of models on this machine alone', () => {
  const candidates = [
    candidate('ollama/a', true, 'HALF_OPEN'),
    candidate('groq/b', false, 'HALF_OPEN'),
    candidate('ollama/c', true, 'CLOSED'),
    candidate('groq/d', false, 'CLOSED'),
  ];
  const plan = (online: boolean): string[] =>
    dueProbes(candidates, { now: 0, online, remaining: (_provider, limit) => limit }).map(
      (probe) => `${probe.key} ${probe.reason}`,
    );
  assert.deepEqual(plan(false), ['ollama/a trial', 'ollama/c idle']);
  assert.deepEqual(plan(true), ['ollama/a trial', 'groq/b trial', 'ollama/c idle', 'groq/d idle']);
});
