/**
 * The chaos soak: a real router (in this process, on a temp state dir) over the chaos upstream, driven by
 * `concurrency` clients through `requests` seeded requests, stream and non-stream. Every response is checked
 * on the client side and against its decision trace and plan; at the end the state files, the privacy
 * canaries, memory and leftover handles are checked too. With probes on, every provider probes its models
 * in the background while the agents run, and the probes are checked as well (`soak-probes.ts`). All of it
 * runs on the soak's clock (`soak-clock.ts`), so its outcomes do not depend on the machine's speed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool } from 'undici';
import type { HistoryEntry } from '../router/api-types.js';
import type { ConfigInput } from '../router/config/schema.js';
import { startRouter } from '../router/daemon/start-router.js';
import { startChaosUpstream } from './chaos-upstream.js';
import { SoakClock } from './soak-clock.js';
import { checkClientView, type ClientResult, type ClientView } from './soak-check.js';
import { judgeProbes } from './soak-probes.js';
import {
  answerText,
  BEHAVIOURS,
  judgeTrace,
  planRequest,
  type Behaviour,
  type RequestPlan,
  type SoakModel,
  type Verdict,
} from './soak-scenarios.js';
import { checkStateDir, counterTotals, findCanaries } from './soak-state.js';

export interface SoakOptions {
  seed: number;
  requests: number;
  concurrency: number;
  /** @default 200 */
  persistDebounceMs?: number;
  /** The router's `hedgeAfterMs` (below the soak's 1,500 ms request timeout). @default null: no hedging */
  hedgeAfterMs?: number | null;
  /** Health probes on every provider, looked for every {@link PROBE_TICK_MS} ms. @default false */
  probes?: boolean;
  /** Progress lines (never request content). */
  log?: (line: string) => void;
}

type Category = Extract<Verdict, { ok: true }>['category'];

export interface SoakReport {
  requests: number;
  durationMs: number;
  /** How far the soak's clock moved: the scripted waits alone (work takes no time on it). */
  clockMs: number;
  categories: Record<Category, number>;
  /** For requests nobody served although a model was good: why the good models were skipped, by reason. */
  heldBy: Record<string, number>;
  violations: { index: number; problem: string }[];
  behaviourCounts: Record<Behaviour, number>;
  /** Requests where one model was tried on a second key, and skips for a spent free-tier budget. */
  keyRotations: number;
  budgetSkips: number;
  /** Upstream calls the plan did not expect (wrong key, unknown model or request). */
  strays: string[];
  stateProblems: string[];
  privacyLeaks: string[];
  memory: { rssMidMb: number; rssEndMb: number; heapMidMb: number; heapEndMb: number };
  /** Handles still open after everything was closed, beyond those open before the run. */
  leakedHandles: string[];
  /**
   * Hedged races (with `hedgeAfterMs`): hedges started, those that served, and those that lost the race
   * (stopped as `hedge_lost` when the attempt they raced committed first).
   */
  hedges: { started: number; served: number; lost: number };
  /**
   * Health probes (with `probes`): those the router ran (history entries), those that were a trial, those
   * served, and their calls upstream (a retry without `max_tokens` is a second call).
   */
  probes: { run: number; trials: number; served: number; upstreamCalls: number };
}

const PROVIDERS = ['chaos-a', 'chaos-b', 'chaos-c', 'chaos-d'];
const DEAD_KEY_PROVIDER = 'chaos-deadkey';
/**
 * The provider with a free-tier budget, small enough for a soak to reach it. Budget windows are whole UTC
 * minutes and days: a per-day limit is reached even by a soak that runs across a minute's turn. A few a
 * day, so both keys spend it early: a key still serving meets 429s whose pauses double, and a model with
 * one key paused is skipped as paused, not as over budget.
 */
const BUDGETED_PROVIDER = 'chaos-d';
const BUDGET = { rpm: 40, rpd: 4 };
export const SOAK_LIMITS = { maxAttempts: 20, totalBudgetMs: 5000 };
/**
 * The router's probe tick with probes on: short, so probes really run (trials of models whose 1 s cooldown
 * passed, before an agent's request takes them) throughout a soak of a few seconds on its clock.
 */
export const PROBE_TICK_MS = 200;
/** The soak's request, body-read and stream-idle timeouts: a hedge delay must be shorter. */
export const SOAK_REQUEST_TIMEOUT_MS = 1500;
/** Every provider's probe settings with probes on: idle probes at the shortest interval, a budget never spent. */
const PROBE_SETTINGS = { enabled: true, idleIntervalMs: 60_000, dailyBudget: 10_000 };

/** 20 models over four providers, interleaved, with the dead-key model fifth. */
export function soakModels(): SoakModel[] {
  const models: SoakModel[] = [];
  for (let i = 1; i <= 5; i += 1)
    for (const provider of PROVIDERS)
      models.push({ key: `${provider}/${provider.slice(-1)}${i}`, deadKey: false });
  models.splice(4, 0, { key: `${DEAD_KEY_PROVIDER}/dk1`, deadKey: true });
  return models;
}

function soakConfig(
  upstream: string,
  models: readonly SoakModel[],
  hedgeAfterMs: number | null,
  probes: boolean,
): ConfigInput {
  const providers: NonNullable<ConfigInput['providers']> = {};
  for (const [i, id] of [...PROVIDERS, DEAD_KEY_PROVIDER].entries()) {
    const ids = models
      .filter((model) => model.key.startsWith(`${id}/`))
      .map((model) => model.key.slice(id.length + 1));
    // Two keys per provider (a 429 or 401 on one moves to the other), and a free-tier budget on one
    // provider, so key rotation and budget skips are judged with everything else.
    providers[id] = {
      baseUrl: `${upstream}/${id}/v1`,
      models: ids,
      apiKeyEnv: [`FCM_SOAK_${i}_KEY`, `FCM_SOAK_${i}_B_KEY`],
      ...(id === BUDGETED_PROVIDER ? { limits: BUDGET } : {}),
      ...(probes ? { probe: PROBE_SETTINGS } : {}),
    };
  }
  return {
    providers,
    sets: { chaos: models.map((model) => model.key) },
    activeSet: 'chaos',
    router: {
      failover: {
        ...SOAK_LIMITS,
        requestTimeoutMs: SOAK_REQUEST_TIMEOUT_MS,
        bodyReadTimeoutMs: SOAK_REQUEST_TIMEOUT_MS,
        streamIdleTimeoutMs: SOAK_REQUEST_TIMEOUT_MS,
        hedgeAfterMs,
      },
      breaker: { failureThreshold: 3, initialCooldownMs: 1000, maxCooldownMs: 4000 },
    },
  };
}

/** A `gc()` for memory checkpoints (a V8 flag switched on at run time). */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  return typeof gc === 'function' ? (gc as () => void) : () => {};
}

function handleCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of process.getActiveResourcesInfo()) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/**
 * One agent's request, on the soak's clock: it gives up 5 s after the budget (a hang) and measures its
 * response head on that clock, and reports all it reads to it.
 */
async function send(pool: Pool, plan: RequestPlan, prompt: string, clock: SoakClock): Promise<ClientView> {
  const { index, stream } = plan;
  const { time, touch } = clock;
  const started = time.now();
  const aborter = new AbortController();
  const timer = time.setTimeout(() => aborter.abort(), SOAK_LIMITS.totalBudgetMs + 5000);
  let headMs = Number.NaN;
  try {
    const res = await pool.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer fcm-local',
        'x-request-id': `soak-${index}`,
      },
      body: JSON.stringify({ model: 'fcm', stream, messages: [{ role: 'user', content: prompt }] }),
      signal: aborter.signal,
    });
    headMs = time.now() - started;
    touch();
    const left = plan.leaves === true && res.statusCode === 200;
    const body = left ? await firstBytes(res.body) : await readAll(res.body, touch);
    return { status: res.statusCode, headers: res.headers, body, stream, headMs, timedOut: false, left };
  } catch {
    return { status: 0, headers: {}, body: '', stream, headMs, timedOut: true };
  } finally {
    time.clearTimeout(timer);
    touch();
  }
}

/** Reads a whole body as text, touching the clock at every part. */
async function readAll(body: AsyncIterable<Buffer>, touch: () => void): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of body) {
    touch();
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** What the client saw agrees with how the trace says the request ended. */
function clientAgrees(result: ClientResult | null, entry: HistoryEntry): boolean {
  // A continued answer's head named the model that began it; the trace names the one that finished it.
  const continued = entry.attempts.some((attempt) => attempt.role === 'continuation');
  return (
    result === null ||
    result.kind === 'left' ||
    (entry.outcome === 'served' &&
      result.kind === 'complete' &&
      (continued || result.model === entry.servedModel)) ||
    (entry.outcome === 'partial' && result.kind === 'partial') ||
    ((entry.outcome === 'all_failed' || entry.outcome === 'no_candidates') &&
      result.kind === 'error' &&
      result.status === entry.clientStatus)
  );
}

/** Reads the first bytes of a body, then hangs up (the client leaves). */
async function firstBytes(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  let first = '';
  for await (const part of body) {
    first = part.toString('utf8');
    break;
  }
  body.destroy();
  return first;
}

/** Runs one soak and reports; never throws for a violation (the caller decides). */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const clock = new SoakClock();
  try {
    return await soakOn(clock, options);
  } finally {
    // Also when the soak threw: its clock's loop would keep the process running.
    await clock.stop();
  }
}

async function soakOn(clock: SoakClock, options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const baseline = handleCounts();
  const clockStart = clock.time.now();
  // The agents' requests in flight: the clock moves only while each of them waits on an upstream call.
  const inFlight = new Set<string>();
  const gc = collector();
  const started = Date.now();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-soak-'));
  const canary = randomBytes(6).toString('hex');
  const prompt = `PROMPT-CANARY-${canary} please answer`;
  const completionCanary = `COMPLETION-CANARY-${canary}`;
  const keys: Record<string, string[]> = {};
  const env: Record<string, string> = {};
  for (const [i, id] of [...PROVIDERS, DEAD_KEY_PROVIDER].entries()) {
    const pair = [`sk-KEY-CANARY-${i}-${canary}`, `sk-KEY-CANARY-${i}-B-${canary}`];
    keys[id] = pair;
    env[`FCM_SOAK_${i}_KEY`] = pair[0] as string;
    env[`FCM_SOAK_${i}_B_KEY`] = pair[1] as string;
  }
  const models = soakModels();
  const upstream = await startChaosUpstream({
    seed: options.seed,
    models,
    keys,
    canary: completionCanary,
    clock,
  });
  clock.start(() => upstream.calls.allWaiting(inFlight));
  await writeFile(
    path.join(dir, 'config.json'),
    JSON.stringify(soakConfig(upstream.url, models, options.hedgeAfterMs ?? null, options.probes === true)),
  );
  const logLines: string[] = [];
  const capture = (line: string): void => void logLines.push(line);
  const router = await startRouter({
    port: 0,
    stateDir: dir,
    env,
    persistDebounceMs: options.persistDebounceMs ?? 200,
    time: clock.time,
    discoveryTickMs: 0,
    logger: { info: capture, warn: capture, error: capture },
    // The chaos upstream is on loopback: the machine's own network has nothing to do with the soak.
    ...(options.probes === true ? { probeTickMs: PROBE_TICK_MS, isOnline: () => true } : {}),
  });
  const secrets = [prompt.slice(0, 26), completionCanary, ...Object.values(keys).flat()];
  const entries = new Map<string, HistoryEntry>();
  let agentEntries = 0;
  // Events are scanned as they come rather than kept, so the memory check measures the router, not this.
  const eventLeaks = new Set<string>();
  const scanEvent = (event: object): void => {
    clock.touch();
    const text = JSON.stringify(event);
    for (const secret of secrets)
      if (text.includes(secret)) eventLeaks.add(`events: ${secret.slice(0, 12)}…`);
  };
  // Every agent's entry is in once this resolves (or the clock has moved 2 s past the last answer).
  let allEntries = (): void => {};
  const entriesIn = new Promise<void>((resolve) => (allEntries = resolve));
  const unsubscribe = [
    router.on('request', (event) => {
      entries.set(event.entry.requestId, event.entry);
      if (event.entry.requestId.startsWith('soak-')) agentEntries += 1;
      if (agentEntries >= options.requests) allEntries();
      scanEvent(event);
    }),
    router.on('breaker', scanEvent),
  ];
  const pool = new Pool(router.url, { connections: options.concurrency, pipelining: 1 });
  // Each response is checked as it arrives; only the small verdict is kept.
  const seen = new Map<number, ReturnType<typeof checkClientView>>();
  const memory = { rssMidMb: 0, rssEndMb: 0, heapMidMb: 0, heapEndMb: 0 };
  const mb = (bytes: number): number => bytes / 2 ** 20;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < options.requests) {
      const index = next;
      next += 1;
      if (index === Math.floor(options.requests / 2)) {
        gc();
        memory.rssMidMb = mb(process.memoryUsage.rss());
        memory.heapMidMb = mb(process.memoryUsage().heapUsed);
      }
      const plan = planRequest(options.seed, index, models);
      inFlight.add(`soak-${index}`);
      const view = await send(pool, plan, prompt, clock);
      inFlight.delete(`soak-${index}`);
      const answerOf = (model: string): string => answerText(model, index, completionCanary);
      seen.set(index, checkClientView(view, answerOf, SOAK_LIMITS.totalBudgetMs));
      if ((index + 1) % 500 === 0) log(`${index + 1}/${options.requests} requests`);
    }
  };
  // A pass started with the load plans a probe of every model (none has been used yet), so probes run
  // alongside the agents whatever the machine's speed; the scheduler's ticks add the trials they win.
  const firstProbes = options.probes === true ? router.runDueProbes() : Promise.resolve([]);
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  await firstProbes;
  // An entry is booked just after its answer has gone: on the clock, that takes no time.
  await Promise.race([entriesIn, clock.sleep(2000)]);
  gc();
  memory.rssEndMb = mb(process.memoryUsage.rss());
  memory.heapEndMb = mb(process.memoryUsage().heapUsed);

  const categories: Record<Category, number> = {
    served_first: 0,
    served_after_failover: 0,
    continued: 0,
    left: 0,
    partial: 0,
    doomed: 0,
    held_back: 0,
    budget: 0,
    attempt_cap: 0,
  };
  const violations: { index: number; problem: string }[] = [];
  const heldBy: Record<string, number> = {};
  const hedges = { started: 0, served: 0, lost: 0 };
  let keyRotations = 0;
  let budgetSkips = 0;
  for (let index = 0; index < options.requests; index += 1) {
    const plan = planRequest(options.seed, index, models);
    const client = seen.get(index) as ReturnType<typeof checkClientView>;
    for (const problem of client.violations) violations.push({ index, problem });
    const entry = entries.get(`soak-${index}`);
    if (!entry) {
      violations.push({ index, problem: 'no decision trace' });
      continue;
    }
    for (const attempt of entry.attempts) {
      if (attempt.role !== 'hedge') continue;
      hedges.started += 1;
      if (attempt.model === entry.servedModel) hedges.served += 1;
      if (attempt.kind === 'hedge_lost') hedges.lost += 1;
    }
    const verdict = judgeTrace(plan, models, entry, SOAK_LIMITS);
    const keysOf = (model: string) =>
      new Set(entry.attempts.filter((a) => a.model === model).map((a) => a.key));
    if (entry.attempts.some((attempt) => keysOf(attempt.model).size > 1)) keyRotations += 1;
    budgetSkips += entry.skipped.filter((skip) => skip.reason === 'quota_budget').length;
    if (!verdict.ok) violations.push({ index, problem: verdict.problem });
    else {
      categories[verdict.category] += 1;
      for (const reason of verdict.heldBy ?? []) heldBy[reason] = (heldBy[reason] ?? 0) + 1;
    }
    const result = client.result;
    const agrees = clientAgrees(result, entry);
    if (!agrees)
      violations.push({ index, problem: `client saw ${result?.kind} but the trace says ${entry.outcome}` });
  }

  await pool.close();
  // Stopped before the listeners go: a probe that finishes meanwhile is still judged.
  await router.stop({ graceMs: 2000 });
  for (const stop of unsubscribe) stop();
  await upstream.close();
  await clock.stop();

  const probes = judgeProbes(entries.values(), options.seed, models, SOAK_LIMITS, await counterTotals(dir));
  for (const { requestId, problem } of probes.violations)
    violations.push({ index: -1, problem: `${requestId}: ${problem}` });
  const state = await checkStateDir(dir);
  const kept = Math.min(entries.size, 500);
  if (state.historyIds !== null && state.historyIds.length !== kept)
    state.problems.push(`history.json holds ${state.historyIds.length} entries, expected ${kept}`);
  const privacyLeaks = [...(await findCanaries(dir, secrets)), ...eventLeaks];
  for (const secret of secrets) {
    if (logLines.some((line) => line.includes(secret))) privacyLeaks.push(`log: ${secret.slice(0, 12)}…`);
  }
  await rm(dir, { recursive: true, force: true });

  // Closed sockets and timers leave the handle list a tick or two later.
  let leakedHandles: string[] = [];
  for (let wait = 0; wait < 20; wait += 1) {
    await delay(50);
    leakedHandles = [...handleCounts()]
      .filter(([name, count]) => count > (baseline.get(name) ?? 0))
      .map(([name, count]) => `${name} x${count - (baseline.get(name) ?? 0)}`);
    if (leakedHandles.length === 0) break;
  }
  const behaviourCounts = Object.fromEntries(
    BEHAVIOURS.map((b) => [b, upstream.counts.get(b) ?? 0]),
  ) as Record<Behaviour, number>;
  return {
    requests: options.requests,
    durationMs: Date.now() - started,
    clockMs: clock.time.now() - clockStart,
    categories,
    heldBy,
    keyRotations,
    budgetSkips,
    violations,
    hedges,
    probes: {
      run: probes.run,
      trials: probes.trials,
      served: probes.served,
      upstreamCalls: upstream.probeCalls,
    },
    behaviourCounts,
    strays: upstream.strays,
    stateProblems: state.problems,
    privacyLeaks,
    memory,
    leakedHandles,
  };
}
