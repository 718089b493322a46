import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyFailure, type FailureInput } from '../../gate/failure-classifier.js';
import { LocalFault } from '../../upstream/exchange-errors.js';
import type { AttemptVerdict } from '../routing/attempt.js';
import { attemptEffects, failsAsTrial, type AttemptEffects, type AttemptFacts } from './attempt-effects.js';

const FACTS: AttemptFacts = {
  model: 'alpha/m1',
  role: 'normal',
  breakerBefore: 'CLOSED',
  sentToTrip: null,
  totalMs: 900,
  fingerprint: '',
  quotaScope: 'model',
  note: null,
  size: 5000,
  estimatedInput: 4000,
  withoutOutputLength: false,
  countedAt: 1_000,
  probe: false,
  local: false,
};
const RATE = { requests: null, tokens: { remaining: 0, resetMs: 1000 } };

const http = (status: number, bodySnippet = ''): FailureInput => ({
  type: 'http',
  status,
  retryAfter: '30',
  bodySnippet,
});

function failed(input: FailureInput, committed = false, sent = true): AttemptVerdict {
  const status = input.type === 'http' ? input.status : null;
  return { type: 'failed', status, latencyMs: 120, failure: classifyFailure(input, 0), committed, sent };
}

/** The effects that differ from a failure's usual ones (no pause, block, lesson or retry). */
function failureEffects(verdict: AttemptVerdict, facts: AttemptFacts = FACTS): Partial<AttemptEffects> {
  const { view, failure, latency, usage, fault, clearPauses, budget, ...rest } = attemptEffects(
    verdict,
    facts,
  );
  assert.equal(view.kind, failure?.kind);
  assert.deepEqual(
    [latency, usage, fault, clearPauses, budget],
    [null, null, null, false, { tokens: null, rateLimit: null, uncountAt: null }],
  );
  return rest;
}

const NOTHING_ELSE = { pause: null, blockKey: false, fit: null };

test('a served attempt: the model is faster, healthier and closer to its budget; the request is served', () => {
  const usage = { promptTokens: 10, completionTokens: 20 };
  const verdict: AttemptVerdict = { type: 'served', status: 200, latencyMs: 300, usage, rateLimit: RATE };
  assert.deepEqual(
    attemptEffects(verdict, { ...FACTS, sentToTrip: 3, note: 'effort added', fingerprint: 'fp1' }),
    {
      view: {
        model: 'alpha/m1',
        status: 200,
        kind: null,
        latencyMs: 300,
        breakerBefore: 'CLOSED',
        role: 'normal',
        note: 'effort added',
        key: 'fp1',
      },
      latency: { firstByteMs: 300, totalMs: 900, completionTokens: 20 },
      budget: { tokens: usage, rateLimit: RATE, uncountAt: null },
      usage,
      failure: null,
      fault: null,
      breaker: { type: 'success', sentToTrip: 3 },
      clearPauses: true,
      stats: { ok: true, latencyMs: 300 },
      pause: null,
      blockKey: false,
      fit: { type: 'served', size: 5000 },
      chain: { type: 'served' },
      then: 'done',
    },
  );
});

test('a served attempt without usage counts the estimated input, marked so', () => {
  const verdict: AttemptVerdict = { type: 'served', status: 200, latencyMs: 300, usage: null };
  const effects = attemptEffects(verdict, FACTS);
  const estimated = { promptTokens: 4000, completionTokens: null, estimated: true };
  assert.deepEqual(
    [effects.usage, effects.budget, effects.latency?.completionTokens],
    [estimated, { tokens: estimated, rateLimit: null, uncountAt: null }, null],
  );
});

test('failures of the key: paused or blocked, no health damage, not in the success rate, the next key of the provider', () => {
  const rows: Array<[string, FailureInput, AttemptFacts['quotaScope'], Partial<AttemptEffects>]> = [
    [
      '429, limits per model',
      http(429),
      'model',
      { pause: { scope: 'model', ms: 30_000, authoritative: true } },
    ],
    [
      '429, limits per key',
      http(429),
      'key',
      { pause: { scope: 'provider', ms: 30_000, authoritative: true, reason: 'rate_limit' } },
    ],
    [
      '402',
      http(402),
      'model',
      { pause: { scope: 'provider', ms: 3_600_000, authoritative: true, reason: 'payment_required' } },
    ],
    ['401', http(401), 'model', { blockKey: true }],
  ];
  for (const [name, input, quotaScope, differs] of rows) {
    assert.deepEqual(
      failureEffects(failed(input), { ...FACTS, quotaScope }),
      {
        ...NOTHING_ELSE,
        breaker: null,
        stats: null,
        chain: { type: 'next' },
        then: 'next_key',
        ...differs,
      },
      name,
    );
  }
});

test("a refusal of the caller's location pauses the key, and leaves the model's breaker and success rate alone", () => {
  const location = http(400, '{"error":{"message":"User location is not supported for the API use."}}');
  assert.deepEqual(failureEffects(failed(location), FACTS), {
    ...NOTHING_ELSE,
    breaker: null,
    stats: null,
    pause: { scope: 'provider', ms: 900_000, authoritative: false, reason: 'region_refused' },
    chain: { type: 'next' },
    then: 'done',
  });
});

test('failures of the model or provider count against its breaker in the role it was tried in', () => {
  for (const role of ['normal', 'trial', 'panic', 'hedge'] as const) {
    assert.deepEqual(failureEffects(failed(http(500)), { ...FACTS, role }), {
      ...NOTHING_ELSE,
      breaker: { type: 'failure', kind: 'server_error', role },
      stats: { ok: false, latencyMs: 120 },
      chain: { type: 'next' },
      then: 'done',
    });
  }
  const network = failed({ type: 'transport', kind: 'network_error' });
  assert.deepEqual(failureEffects(network, { ...FACTS, role: 'trial' }).breaker, {
    type: 'deferred',
    role: 'trial',
  });
});

test("the request's own failures: no damage, no stats; a 400 is tried once more without an output length", () => {
  const request = { ...NOTHING_ELSE, breaker: null, stats: null, chain: { type: 'next' } } as const;
  assert.deepEqual(failureEffects(failed(http(400))), { ...request, then: 'without_output_length' });
  assert.deepEqual(failureEffects(failed(http(400)), { ...FACTS, withoutOutputLength: true }), {
    ...request,
    then: 'done',
  });
  assert.deepEqual(failureEffects(failed(http(422))), { ...request, then: 'done' });
  assert.deepEqual(failureEffects(failed(http(400, "This model's maximum context length is 8192 tokens"))), {
    ...request,
    fit: { type: 'ceiling', ceiling: 'context', size: 5000, statedLimit: 8192 },
    then: 'without_output_length',
  });
  assert.deepEqual(
    failureEffects(failed(http(413, 'Request too large for model on tokens per minute (TPM)'))),
    {
      ...request,
      fit: { type: 'ceiling', ceiling: 'tpm', size: 5000, statedLimit: null },
      then: 'done',
    },
  );
  assert.deepEqual(failureEffects(failed(http(400, 'tools is not supported'))), {
    ...request,
    fit: { type: 'feature', feature: 'tools' },
    then: 'done',
  });
});

test('once content went out: a broken stream, or a stop when the client left; nothing learnt, no retry', () => {
  const midStream = failed({ type: 'transport', kind: 'mid_stream_error' }, true);
  assert.deepEqual(failureEffects(midStream), {
    ...NOTHING_ELSE,
    breaker: { type: 'failure', kind: 'mid_stream_error', role: 'normal' },
    stats: { ok: false, latencyMs: 120 },
    chain: { type: 'broken', kind: 'mid_stream_error', model: 'alpha/m1' },
    then: 'done',
  });
  const left = failed({ type: 'transport', kind: 'client_aborted' }, true);
  assert.deepEqual(failureEffects(left), {
    ...NOTHING_ELSE,
    breaker: null,
    stats: null,
    chain: { type: 'stop' },
    then: 'done',
  });
  const before = failed({ type: 'transport', kind: 'client_aborted' }, false);
  assert.deepEqual(failureEffects(before).chain, { type: 'stop' });
  const lost = failed({ type: 'transport', kind: 'hedge_lost' }, false);
  assert.deepEqual(failureEffects(lost), {
    ...NOTHING_ELSE,
    breaker: null,
    stats: null,
    chain: { type: 'stop' },
    then: 'done',
  });
});

test("the router's own fault: logged and ends the chain; nobody's health, stats or pauses move", () => {
  const fault = new LocalFault(new Error('bug'));
  const verdict: AttemptVerdict = {
    type: 'fault',
    status: 200,
    latencyMs: 5,
    fault,
    committed: false,
    sent: true,
    rateLimit: RATE,
  };
  const effects = attemptEffects(verdict, FACTS);
  assert.deepEqual(effects, {
    view: {
      model: 'alpha/m1',
      status: 200,
      kind: 'internal_error',
      latencyMs: 5,
      breakerBefore: 'CLOSED',
      role: 'normal',
    },
    latency: null,
    budget: { tokens: null, rateLimit: RATE, uncountAt: null },
    usage: null,
    failure: null,
    fault,
    breaker: null,
    clearPauses: false,
    stats: null,
    pause: null,
    blockKey: false,
    fit: null,
    chain: { type: 'fault', model: 'alpha/m1' },
    then: 'done',
  });
});

test('a failure counts as a failed trial for the panic try, and for a trial once the cooldown ran out', () => {
  const rows: Array<[AttemptFacts['role'], number | null, boolean]> = [
    ['panic', 5000, true],
    ['panic', null, true],
    ['trial', null, true],
    ['trial', 1000, true],
    ['trial', 1001, false],
    ['normal', null, false],
    ['pinned', null, false],
    ['last_resort', null, false],
    ['hedge', null, false],
  ];
  for (const [role, openUntil, expected] of rows)
    assert.equal(failsAsTrial(role, openUntil, 1000), expected, `${role} ${String(openUntil)}`);
});

test('a request that never left the machine takes its budget count back; one that was sent keeps it', () => {
  const refused = { type: 'transport', kind: 'network_error' } as const;
  assert.deepEqual(attemptEffects(failed(refused, false, false), FACTS).budget, {
    tokens: null,
    rateLimit: null,
    uncountAt: 1_000,
  });
  assert.equal(attemptEffects(failed(refused), FACTS).budget.uncountAt, null, 'sent, then the line broke');
  const uncounted = attemptEffects(failed(refused, false, false), { ...FACTS, countedAt: null });
  assert.equal(uncounted.budget.uncountAt, null, 'nothing was counted: nothing to take back');
  const fault: AttemptVerdict = {
    type: 'fault',
    status: null,
    latencyMs: 0,
    fault: new LocalFault(new Error('bug')),
    committed: false,
    sent: false,
  };
  assert.equal(attemptEffects(fault, FACTS).budget.uncountAt, 1_000, 'a fault before the request went out');
});

test('a probe that never reached the provider does no health damage and says so; one that was sent does', () => {
  const refused = { type: 'transport', kind: 'network_error' } as const;
  const probe = { ...FACTS, probe: true };
  const unreached = attemptEffects(failed(refused, false, false), probe);
  assert.deepEqual([unreached.breaker, unreached.stats, unreached.view.unreached], [null, null, true]);
  assert.equal(unreached.budget.uncountAt, 1_000);
  const sent = attemptEffects(failed(refused), probe);
  assert.deepEqual(sent.breaker, { type: 'deferred', role: 'normal' });
  assert.equal(sent.view.unreached, undefined);
  const agent = attemptEffects(failed(refused, false, false), FACTS);
  assert.deepEqual(
    agent.breaker,
    { type: 'deferred', role: 'normal' },
    'an agent’s: the offline rule decides',
  );
  assert.equal(agent.view.unreached, undefined);
  const timeout = attemptEffects(failed({ type: 'transport', kind: 'timeout' }, false, false), probe);
  assert.equal(timeout.view.unreached, undefined, 'only a network error');
});

test('a local server’s network error is its failure at once, a probe’s and an agent’s, sent or not', () => {
  const refused = { type: 'transport', kind: 'network_error' } as const;
  const local = { ...FACTS, local: true, role: 'trial' as const };
  for (const facts of [local, { ...local, probe: true }])
    for (const sent of [false, true]) {
      const effects = attemptEffects(failed(refused, false, sent), facts);
      const what = `probe ${facts.probe}, sent ${sent}`;
      assert.deepEqual(effects.breaker, { type: 'failure', kind: 'network_error', role: 'trial' }, what);
      assert.deepEqual(effects.stats, { ok: false, latencyMs: 120 }, what);
      assert.equal(effects.view.unreached, undefined, what);
      assert.equal(effects.view.local, true, what);
    }
  assert.equal(attemptEffects(failed(refused), FACTS).view.local, undefined, 'off this machine: absent');
});
