import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HistoryEntry } from '../router/api-types.js';
import { checkClientView, readSse, type ClientView } from './soak-check.js';
import { runSoak } from './soak-runner.js';
import { judgeProbes, probePlan } from './soak-probes.js';
import {
  BEHAVIOURS,
  expectedKinds,
  isGood,
  judgeTrace,
  planRequest,
  type RequestPlan,
  type SoakModel,
} from './soak-scenarios.js';

const models: SoakModel[] = [
  { key: 'p/a', deadKey: false },
  { key: 'p/b', deadKey: false },
  { key: 'q/dead', deadKey: true },
];
const limits = { maxAttempts: 20, totalBudgetMs: 5000 };

function entry(over: Partial<HistoryEntry>): HistoryEntry {
  return {
    requestId: 'soak-0',
    at: 0,
    modelRequested: 'fcm',
    set: 'chaos',
    pinned: null,
    servedModel: null,
    outcome: 'all_failed',
    stream: false,
    wallMs: 10,
    attempts: [],
    skipped: [],
    client: null,
    clientStatus: 502,
    lastResortUsed: false,
    source: 'agent',
    api: 'chat',
    usage: null,
    ...over,
  };
}

const attempt = (
  model: string,
  kind: HistoryEntry['attempts'][number]['kind'],
): HistoryEntry['attempts'][number] => ({
  model,
  status: kind === null ? 200 : null,
  kind,
  latencyMs: 1,
  breakerBefore: 'CLOSED',
  role: 'normal',
});

test('plans replay from their seed and keep a servable model unless doomed', () => {
  for (let index = 0; index < 300; index += 1) {
    const plan = planRequest(42, index, models);
    assert.deepEqual(plan, planRequest(42, index, models));
    assert.equal(plan.behaviours[2], 's401');
    if (!plan.doomed)
      assert.ok(plan.behaviours.some((b) => b === 'good' || b === 'slow_good' || b === 'reasoning_good'));
  }
});

test('judgeTrace accepts a fair failover and flags an unfair one', () => {
  const plan: RequestPlan = { index: 0, stream: false, doomed: false, behaviours: ['empty', 'good', 's401'] };
  const fair = entry({
    outcome: 'served',
    servedModel: 'p/b',
    attempts: [attempt('p/a', 'empty_choices'), attempt('p/b', null)],
    clientStatus: 200,
  });
  assert.deepEqual(judgeTrace(plan, models, fair, limits), { ok: true, category: 'served_after_failover' });
  const misread = entry({
    attempts: [attempt('p/a', 'empty_choices'), attempt('p/b', 'empty_content')],
    skipped: [{ model: 'q/dead', reason: 'auth_error' }],
  });
  assert.equal(judgeTrace(plan, models, misread, limits).ok, false);
  const forgotten = entry({
    attempts: [attempt('p/a', 'empty_choices')],
    skipped: [{ model: 'q/dead', reason: 'auth_error' }],
  });
  assert.equal(judgeTrace(plan, models, forgotten, limits).ok, false);
  const heldBack = entry({
    attempts: [attempt('p/a', 'empty_choices')],
    skipped: [
      { model: 'p/b', reason: 'circuit_open' },
      { model: 'q/dead', reason: 'auth_error' },
    ],
  });
  assert.deepEqual(judgeTrace(plan, models, heldBack, limits), {
    ok: true,
    category: 'held_back',
    heldBy: ['circuit_open'],
  });
  const servedBad = entry({
    outcome: 'served',
    servedModel: 'p/a',
    attempts: [attempt('p/a', null)],
    clientStatus: 200,
  });
  assert.equal(judgeTrace(plan, models, servedBad, limits).ok, false);
});

test('judgeTrace accepts a hedged race’s loser only when the other model committed the answer', () => {
  const plan: RequestPlan = { index: 0, stream: true, doomed: false, behaviours: ['hang', 'good', 's401'] };
  const won = entry({
    outcome: 'served',
    servedModel: 'p/b',
    attempts: [attempt('p/a', 'hedge_lost'), { ...attempt('p/b', null), role: 'hedge' }],
    clientStatus: 200,
  });
  assert.deepEqual(judgeTrace(plan, models, won, limits), { ok: true, category: 'served_after_failover' });
  const nobodyWon = entry({
    attempts: [attempt('p/a', 'hedge_lost'), { ...attempt('p/b', 'stream_stall'), role: 'hedge' }],
    skipped: [{ model: 'q/dead', reason: 'auth_error' }],
  });
  assert.equal(judgeTrace(plan, models, nobodyWon, limits).ok, false);
  // The committed stream broke after content; the hedge it beat is listed after it.
  const broke: RequestPlan = { ...plan, behaviours: ['stall_after', 'hang', 's401'] };
  const partial = entry({
    outcome: 'partial',
    servedModel: 'p/a',
    attempts: [attempt('p/a', 'stream_stall'), { ...attempt('p/b', 'hedge_lost'), role: 'hedge' }],
    clientStatus: 200,
  });
  assert.deepEqual(judgeTrace(broke, models, partial, limits), { ok: true, category: 'partial' });
});

test('judgeTrace: a stream finished by the next model is continued; a client that left is never continued for', () => {
  const plan: RequestPlan = {
    index: 0,
    stream: true,
    doomed: false,
    behaviours: ['reset_mid', 'good', 's401'],
  };
  const continuation = (model: string, kind: HistoryEntry['attempts'][number]['kind']) => ({
    ...attempt(model, kind),
    role: 'continuation' as const,
  });
  const continued = entry({
    outcome: 'served',
    servedModel: 'p/b',
    stream: true,
    attempts: [attempt('p/a', 'network_error'), continuation('p/b', null)],
    clientStatus: 200,
  });
  assert.deepEqual(judgeTrace(plan, models, continued, limits), { ok: true, category: 'continued' });
  const leaves: RequestPlan = { ...plan, leaves: true };
  const left = entry({
    outcome: 'client_aborted',
    attempts: [attempt('p/a', 'client_aborted')],
    clientStatus: 499,
  });
  assert.deepEqual(judgeTrace(leaves, models, left, limits), { ok: true, category: 'left' });
  assert.deepEqual(
    judgeTrace(leaves, models, continued, limits),
    { ok: true, category: 'continued' },
    'finished before the router could know the client left',
  );
  const stalled: RequestPlan = { ...leaves, behaviours: ['stall_after', 'good', 's401'] };
  const afterStall = entry({
    outcome: 'client_aborted',
    attempts: [attempt('p/a', 'stream_stall'), continuation('p/b', 'client_aborted')],
    clientStatus: 499,
  });
  assert.equal(judgeTrace(stalled, models, afterStall, limits).ok, false, 'continued long after it left');
});

const probeId = (n: number): string => `probe-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

test('a probe’s plan replays from its request id; it is doomed exactly when the probed model fails', () => {
  const seen = new Set<string>();
  for (let n = 0; n < 200; n += 1) {
    const plan = probePlan(42, probeId(n), models, 'p/a');
    assert.deepEqual(plan, probePlan(42, probeId(n), models, 'p/a'));
    assert.equal(plan.stream, false);
    assert.equal(plan.behaviours[2], 's401');
    assert.equal(plan.doomed, !isGood(plan.behaviours[0] ?? 's401'));
    seen.add(plan.behaviours[0] ?? '');
  }
  assert.ok(seen.size > 5, `probes meet many behaviours: ${[...seen].join(', ')}`);
});

test('judgeProbes: probes alone have source "probe", their traces are fair, the counters count agents only', () => {
  const goodProbe = Array.from({ length: 200 }, (_, n) => probeId(n)).find(
    (id) => !probePlan(42, id, models, 'p/a').doomed,
  ) as string;
  const failingProbe = Array.from({ length: 200 }, (_, n) => probeId(n)).find((id) => {
    const behaviour = probePlan(42, id, models, 'p/a').behaviours[0] ?? 'good';
    return expectedKinds(behaviour, false).length === 1;
  }) as string;
  const failedBehaviour = probePlan(42, failingProbe, models, 'p/a').behaviours[0] ?? 'good';
  const probe = (id: string, over: Partial<HistoryEntry>): HistoryEntry =>
    entry({ requestId: id, source: 'probe', pinned: 'p/a', ...over });
  const served = probe(goodProbe, {
    outcome: 'served',
    servedModel: 'p/a',
    clientStatus: 200,
    attempts: [{ ...attempt('p/a', null), role: 'pinned' }],
  });
  const failed = probe(failingProbe, {
    attempts: [attempt('p/a', expectedKinds(failedBehaviour, false)[0] ?? null)],
  });
  const agent = entry({
    requestId: 'soak-0',
    outcome: 'served',
    servedModel: 'p/a',
    attempts: [attempt('p/a', null)],
  });
  const fair = judgeProbes([served, failed, agent], 42, models, limits, { requests: 1, served: 1 });
  assert.deepEqual(fair, { run: 2, served: 1, trials: 0, violations: [] });

  const problems = (entries: HistoryEntry[], counters = { requests: 1, served: 1 }): string[] =>
    judgeProbes(entries, 42, models, limits, counters).violations.map((v) => v.problem);
  assert.deepEqual(problems([{ ...served, source: 'agent' }, agent]), ['a probe has source agent']);
  assert.deepEqual(problems([served, { ...agent, source: 'probe' }]), [
    "an agent's request has source probe",
  ]);
  assert.deepEqual(problems([served, agent], { requests: 2, served: 2 }), [
    'day counters count 2 requests (2 served), the agents sent 1 (1 served)',
  ]);
  const unfair = {
    ...failed,
    outcome: 'served' as const,
    servedModel: 'p/a',
    attempts: [attempt('p/a', null)],
  };
  assert.equal(problems([unfair, agent]).length, 1, 'a probe served by a model that failed it');
  assert.deepEqual(problems([{ ...served, pinned: null }, agent]), [
    'a probe that is not pinned to its model',
  ]);
});

test('checkClientView catches empty 200s, early error frames and splices', () => {
  const view = (over: Partial<ClientView>): ClientView => ({
    status: 200,
    headers: {
      'x-request-id': 'soak-0',
      'x-fcm-v2-model': 'p/a',
      'x-fcm-v2-attempts': '1',
      'x-fcm-v2-decision': 'p/a!served|p/a:200|skips=0',
    },
    body: '',
    stream: true,
    headMs: 5,
    timedOut: false,
    ...over,
  });
  const answer = (): string => 'hello world';
  const frame = (data: object | string): string =>
    `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
  const delta = (content: string): object => ({ choices: [{ index: 0, delta: { content } }] });
  const good = frame(delta('hello ')) + frame(delta('world')) + frame('[DONE]');
  assert.deepEqual(checkClientView(view({ body: good }), answer, 5000).violations, []);
  const earlyError = frame({ error: { message: 'x' } }) + frame(delta('hello world')) + frame('[DONE]');
  assert.ok(
    checkClientView(view({ body: earlyError }), answer, 5000).violations.includes(
      'error frame before content',
    ),
  );
  assert.ok(
    checkClientView(view({ body: frame('[DONE]') }), answer, 5000).violations.includes('empty 200 stream'),
  );
  const spliced = frame(delta('hello ')) + frame(delta('other')) + frame('[DONE]');
  assert.ok(checkClientView(view({ body: spliced }), answer, 5000).violations.length > 0);
  const partial = frame(delta('hello ')) + frame({ error: { message: 'incomplete' } });
  assert.deepEqual(checkClientView(view({ body: partial }), answer, 5000), {
    result: { kind: 'partial', model: 'p/a', content: 'hello ' },
    violations: [],
  });
  const empty200 = JSON.stringify({ choices: [{ message: { role: 'assistant', content: '' } }] });
  assert.ok(
    checkClientView(view({ stream: false, body: empty200 }), answer, 5000).violations.includes('empty 200'),
  );
  assert.ok(
    checkClientView(
      view({ headers: {}, status: 502, body: '{"error":{"message":"x"}}' }),
      answer,
      5000,
    ).violations.some((v) => v.startsWith('missing header')),
  );
  assert.equal(readSse(good).content, 'hello world');
});

test('chaos soak: every invariant holds over 3000 requests at concurrency 32', async () => {
  const report = await runSoak({ seed: 20_260_529, requests: 3000, concurrency: 32 });
  assert.deepEqual(report.violations.slice(0, 10), []);
  assert.deepEqual(report.strays, []);
  assert.deepEqual(report.stateProblems, []);
  assert.deepEqual(report.privacyLeaks, []);
  assert.deepEqual(report.leakedHandles, []);
  assert.ok(report.keyRotations > 0, 'a 429 or 401 on one key moved to the other key of the provider');
  assert.ok(report.budgetSkips > 0, 'the budgeted provider reached its free-tier budget');
  const c = report.categories;
  const { served_first, served_after_failover, continued, left, partial, doomed } = c;
  assert.equal(
    served_first +
      served_after_failover +
      continued +
      left +
      partial +
      doomed +
      c.held_back +
      c.budget +
      c.attempt_cap,
    3000,
  );
  // The run really exercised failover, mid-stream breaks finished by the next models, clients that left,
  // doomed requests and every behaviour.
  assert.ok(served_first > 0 && served_after_failover > 0 && continued > 0 && left > 0 && doomed > 0);
  for (const behaviour of BEHAVIOURS)
    assert.ok(report.behaviourCounts[behaviour] > 0, `${behaviour} never happened`);
  // Flat memory: over the second half the heap after GC grows by less than 16 MB (the harness itself keeps
  // every decision trace, about 1 KB each, so 1 500 requests account for a few MB of that).
  assert.ok(
    report.memory.heapEndMb < report.memory.heapMidMb + 16,
    `heap ${report.memory.heapMidMb} -> ${report.memory.heapEndMb} MB`,
  );
});

test('chaos soak with hedging: every invariant holds, and hedges both win and lose', async () => {
  // A slow model answers 100 ms after the hedge beside it started: the hedge wins when its own model is
  // quicker, and loses the race when that model is slower still or hangs. On the soak's clock the race
  // follows the scripted delays alone, so this seed's races come out the same in every run, loaded or not.
  const report = await runSoak({ seed: 13, requests: 1500, concurrency: 32, hedgeAfterMs: 300 });
  assert.deepEqual(report.violations.slice(0, 10), []);
  assert.deepEqual(report.strays, []);
  assert.deepEqual(report.stateProblems, []);
  assert.deepEqual(report.privacyLeaks, []);
  assert.deepEqual(report.leakedHandles, []);
  const { started, served, lost } = report.hedges;
  assert.ok(served > 0 && lost > 0, `${started} hedges started, ${served} served, ${lost} lost the race`);
});

test('chaos soak with probes and hedging: every invariant holds, and probes really run', async () => {
  const report = await runSoak({ seed: 7, requests: 3000, concurrency: 32, hedgeAfterMs: 300, probes: true });
  assert.deepEqual(report.violations.slice(0, 10), []);
  assert.deepEqual(report.strays, []);
  assert.deepEqual(report.stateProblems, []);
  assert.deepEqual(report.privacyLeaks, []);
  assert.deepEqual(report.leakedHandles, []);
  assert.ok(report.probes.run > 0, 'probes ran during the soak');
  assert.ok(report.probes.upstreamCalls > 0, 'probes reached the upstream');
  assert.ok(report.hedges.started > 0, 'hedges started alongside the probes');
});
