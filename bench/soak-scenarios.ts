/**
 * What the chaos soak's fake models do, request by request, and what the router may legitimately make of
 * it. A scenario is a pure function of (seed, request index, model index), so the fake upstream and the
 * checker agree on it without sharing state, and a run replays from its seed. Pure.
 */
import type { FailureKind, HistoryEntry } from '../router/api-types.js';
import { cellRandom, pickWeighted } from './prng.js';

export const BEHAVIOURS = [
  'good',
  'slow_good',
  'reasoning_good',
  'empty',
  'empty_content',
  'error_payload',
  'html',
  'invalid_json',
  'stall_before',
  'hang',
  'reset',
  'stall_after',
  'reset_mid',
  'error_after',
  'ends_mid',
  's429',
  's400',
  's404',
  's500',
  's503',
  's529',
  's401',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

const GOOD: ReadonlySet<Behaviour> = new Set(['good', 'slow_good', 'reasoning_good']);
/** Behaviours that send real content and then break: a stream ends partial, a JSON body never parses. */
const MID_STREAM: ReadonlySet<Behaviour> = new Set(['stall_after', 'reset_mid', 'error_after', 'ends_mid']);

export const GOOD_WEIGHTS = { good: 110, slow_good: 15, reasoning_good: 12 } as const;
export const FAIL_WEIGHTS = {
  empty: 4,
  empty_content: 4,
  error_payload: 4,
  html: 3,
  invalid_json: 3,
  stall_before: 2,
  hang: 2,
  reset: 3,
  stall_after: 2,
  reset_mid: 2,
  error_after: 3,
  ends_mid: 2,
  s429: 4,
  s400: 3,
  s404: 3,
  s500: 4,
  s503: 3,
  s529: 3,
} as const;

export interface SoakModel {
  /** `provider/modelId` */
  key: string;
  /** Always answers 401: the dead key of the set (a 401 blocks the whole key, so it lives on its own provider). */
  deadKey: boolean;
}

export interface RequestPlan {
  index: number;
  stream: boolean;
  /** A streaming client that leaves once the first bytes of its answer arrive. */
  leaves?: boolean;
  /** Every model of the set fails this request (by design, a few percent of requests). */
  doomed: boolean;
  /** Behaviour per model, in set order. */
  behaviours: Behaviour[];
}

/** The share of requests for which every model fails. */
export const DOOMED_SHARE = 0.03;
/** The share of streaming requests whose client leaves after the first bytes. */
export const LEAVE_SHARE = 0.04;

/** The plan of request `index`: stream or not, doomed or not, and each model's behaviour. */
export function planRequest(seed: number, index: number, models: readonly SoakModel[]): RequestPlan {
  const head = cellRandom(seed, index, -1);
  const stream = head() < 0.5;
  const doomed = head() < DOOMED_SHARE;
  const leaves = stream && head() < LEAVE_SHARE;
  const weights = doomed ? FAIL_WEIGHTS : { ...GOOD_WEIGHTS, ...FAIL_WEIGHTS };
  const behaviours = models.map((model, column): Behaviour =>
    model.deadKey ? 's401' : pickWeighted<Behaviour>(cellRandom(seed, index, column), weights),
  );
  if (!doomed && !behaviours.some((b) => GOOD.has(b))) {
    // A request that is not doomed always has a model that could serve it.
    const column = models.findIndex((model, i) => !model.deadKey && i >= index % models.length);
    behaviours[column === -1 ? 0 : column] = 'good';
  }
  return { index, stream, doomed, behaviours, ...(leaves ? { leaves } : {}) };
}

export const isGood = (behaviour: Behaviour): boolean => GOOD.has(behaviour);
export const breaksMidStream = (behaviour: Behaviour, stream: boolean): boolean =>
  stream && MID_STREAM.has(behaviour);

/**
 * The failure kinds a fair classifier may give an attempt that met `behaviour`; empty for a good one. A
 * continuation that dies before anything new of its own reached the client (it began with blanks) is a
 * failure before content: its error frame is an error payload.
 */
export function expectedKinds(behaviour: Behaviour, stream: boolean, continuation = false): FailureKind[] {
  if (continuation && behaviour === 'error_after') return ['mid_stream_error', 'error_payload'];
  switch (behaviour) {
    case 'good':
    case 'slow_good':
    case 'reasoning_good':
      return [];
    case 'empty':
      return [stream ? 'empty_stream' : 'empty_choices'];
    case 'empty_content':
      return [stream ? 'empty_stream' : 'empty_content'];
    case 'error_payload':
      return ['error_payload'];
    case 'html':
      return ['html_maintenance'];
    case 'invalid_json':
      return ['invalid_json'];
    case 'stall_before':
    case 'stall_after':
      return [stream ? 'stream_stall' : 'body_timeout'];
    case 'hang':
      return ['timeout'];
    case 'reset':
    case 'reset_mid':
      return ['network_error'];
    case 'error_after':
      return [stream ? 'mid_stream_error' : 'error_payload'];
    case 'ends_mid':
      return [stream ? 'unfinished_stream' : 'invalid_json'];
    case 's429':
      return ['rate_limit'];
    case 's400':
      return ['invalid_request'];
    case 's404':
      return ['model_not_found'];
    case 's500':
    case 's503':
      return ['server_error'];
    case 's529':
      return ['overloaded'];
    case 's401':
      return ['auth_error'];
  }
}

/** The text a good model answers with (the checker compares what the client got against it). */
export function answerText(model: string, index: number, canary: string): string {
  return `answer from ${model} for request ${index}: ${canary} the end.`;
}

/** Why a request ended as it did, or the violation it shows. */
export type Verdict =
  | {
      ok: true;
      category:
        | 'served_first'
        | 'served_after_failover'
        | 'continued'
        | 'left'
        | 'partial'
        | 'doomed'
        | 'held_back'
        | 'budget'
        | 'attempt_cap';
      /** For `held_back`: why each good model was skipped. */
      heldBy?: string[];
    }
  | { ok: false; problem: string };

/**
 * A continuation after a stall: the router waited out the stream's idle limit, long after a client that
 * left at the first bytes was gone, and went on for it all the same.
 */
function continuedAfterStall(entry: HistoryEntry): boolean {
  const stalled = entry.attempts.findIndex((attempt) => attempt.kind === 'stream_stall');
  return stalled >= 0 && entry.attempts.slice(stalled + 1).some((attempt) => attempt.role === 'continuation');
}

/** Skip reasons that come from router state the scenario built up earlier (breakers, pauses, a dead key). */
const STATE_SKIPS = new Set(['circuit_open', 'half_open_busy', 'quota_paused', 'quota_budget', 'auth_error']);

/** The first attempt whose kind does not fit the behaviour its model met (or a hedge nobody won), or null. */
function attemptProblem(
  plan: RequestPlan,
  entry: HistoryEntry,
  behaviourOf: (key: string) => Behaviour | undefined,
): string | null {
  for (const attempt of entry.attempts) {
    const behaviour = behaviourOf(attempt.model);
    if (behaviour === undefined) return `attempt on unknown model ${attempt.model}`;
    if (attempt.kind === 'budget_exhausted') continue;
    // The client that left stops the attempt running then.
    if (attempt.kind === 'client_aborted' && plan.leaves) continue;
    // A hedged race's loser may have met anything: fair only when its rival committed the answer.
    if (attempt.kind === 'hedge_lost') {
      if (entry.servedModel === null || entry.servedModel === attempt.model)
        return `${attempt.model} lost a hedge that no other model won`;
      continue;
    }
    const expected = expectedKinds(behaviour, plan.stream, attempt.role === 'continuation');
    // A mid-stream break of a committed stream ends the request; its kind is the break's.
    if (attempt.kind === null ? expected.length > 0 : !expected.includes(attempt.kind))
      return `${attempt.model} met ${behaviour} but the attempt says ${attempt.kind ?? 'served'}`;
  }
  return null;
}

/**
 * The verdict on a request whose client got an answer (served, continued, partial) or left; null for one
 * nobody served. `served` is the behaviour the serving model met.
 */
function answeredVerdict(
  plan: RequestPlan,
  entry: HistoryEntry,
  served: Behaviour | undefined,
): Verdict | null {
  // The router learns that a client left only from its socket; a stall is long enough for it to have.
  if (plan.leaves && continuedAfterStall(entry))
    return { ok: false, problem: `a client that left was continued for (${entry.outcome})` };
  if (plan.leaves && entry.outcome === 'client_aborted') return { ok: true, category: 'left' };
  if (entry.outcome === 'served') {
    if (served === undefined || !isGood(served))
      return { ok: false, problem: `served by ${entry.servedModel} which met ${served}` };
    if (entry.attempts.some((attempt) => attempt.role === 'continuation'))
      return { ok: true, category: 'continued' };
    return { ok: true, category: entry.attempts.length === 1 ? 'served_first' : 'served_after_failover' };
  }
  if (entry.outcome !== 'partial') return null;
  // The model whose content went last (in a hedged race, the other attempt may be listed after it).
  if (served === undefined || !breaksMidStream(served, plan.stream))
    return { ok: false, problem: `partial answer from ${entry.servedModel} which met ${served}` };
  return { ok: true, category: 'partial' };
}

/**
 * Checks one request's decision trace against its plan: every attempt's kind fits the behaviour met (or it
 * lost a hedged race to the model that served), a
 * served model really was good (a partial one really broke mid-stream), and a request nobody served is
 * explained (doomed, its good models held back by breakers or pauses, the budget or the attempt cap). A
 * pinned request is judged on its one model.
 */
export function judgeTrace(
  plan: RequestPlan,
  models: readonly SoakModel[],
  entry: HistoryEntry,
  limits: { maxAttempts: number; totalBudgetMs: number },
): Verdict {
  const column = new Map(models.map((model, i) => [model.key, i]));
  const behaviourOf = (key: string): Behaviour | undefined => plan.behaviours[column.get(key) ?? -1];
  const unfair = attemptProblem(plan, entry, behaviourOf);
  if (unfair !== null) return { ok: false, problem: unfair };
  const answered = answeredVerdict(
    plan,
    entry,
    entry.servedModel === null ? undefined : behaviourOf(entry.servedModel),
  );
  if (answered !== null) return answered;
  if (entry.outcome !== 'all_failed' && entry.outcome !== 'no_candidates')
    return { ok: false, problem: `unexpected outcome ${entry.outcome}` };
  if (plan.doomed) return { ok: true, category: 'doomed' };
  const attempted = new Set(entry.attempts.map((attempt) => attempt.model));
  const skipped = new Map(entry.skipped.map((skip) => [skip.model, skip.reason]));
  const last = entry.attempts.at(-1);
  const budgetSpent = last?.kind === 'budget_exhausted' || entry.wallMs >= limits.totalBudgetMs - 50;
  const capped = entry.attempts.length >= limits.maxAttempts;
  const heldBy: string[] = [];
  for (const [i, model] of models.entries()) {
    const behaviour = plan.behaviours[i] as Behaviour;
    // A pinned request (a probe) has one candidate: the model it names.
    if (!isGood(behaviour) || (entry.pinned !== null && model.key !== entry.pinned)) continue;
    if (attempted.has(model.key)) {
      const attempt = entry.attempts.find((a) => a.model === model.key);
      if (attempt?.kind === 'budget_exhausted') continue;
      return { ok: false, problem: `${model.key} was good but its attempt failed (${attempt?.kind})` };
    }
    const reason = skipped.get(model.key);
    if (reason !== undefined && STATE_SKIPS.has(reason)) {
      heldBy.push(reason);
      continue;
    }
    if (!budgetSpent && !capped)
      return {
        ok: false,
        problem: `${model.key} was good, yet neither tried nor skipped by state (${reason ?? 'no skip'})`,
      };
  }
  if (budgetSpent) return { ok: true, category: 'budget' };
  if (heldBy.length > 0) return { ok: true, category: 'held_back', heldBy };
  return { ok: true, category: 'attempt_cap' };
}
