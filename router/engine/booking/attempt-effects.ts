/**
 * What one attempt's result does, as data: the one place a served, failed or faulted attempt becomes its
 * effects on the model's breaker and stats, the key's pauses, block and budgets, the day's usage, what is
 * learnt of the model's fit, and what the chain does next. What each failure kind means is a row of the
 * classifier's table (`gate/failure-classifier.ts`); this turns a verdict and its facts into effects, and
 * `apply-effects.ts` carries them out. Pure, table-tested.
 */
import type { AttemptView, BreakerStateName, UsageView } from '../../api-types.js';
import type { ResolvedProvider } from '../../config/resolve-config.js';
import type { Classification } from '../../gate/failure-classifier.js';
import type { FailureKind } from '../../gate/failure-kinds.js';
import type { LocalFault } from '../../upstream/exchange-errors.js';
import type { RateLimitHints } from '../../upstream/upstream-headers.js';
import type { ProviderPauseReason } from '../../state/quota-book.js';
import type { AttemptVerdict } from '../routing/attempt.js';
import type { Role } from '../answer/request-trace.js';

/** What one dispatch means for the chain. */
export type DispatchResult =
  /** The answer went out whole. */
  | { type: 'served' }
  /** Not served, nothing sent: the next candidate may try (also for a candidate that was skipped). */
  | { type: 'next' }
  /** Not served, nothing sent, and no other model would do better (the client's own error, an abort). */
  | { type: 'stop' }
  /** The stream broke after content reached the client. */
  | { type: 'broken'; kind: FailureKind; model: string }
  /** The router's own code failed (logged); nobody's health is at stake. */
  | { type: 'fault'; model: string };

/** What the attempt knew besides its verdict: who it was, what it sent, and where its breaker stood. */
export interface AttemptFacts {
  model: string;
  role: Role;
  breakerBefore: BreakerStateName;
  /** The trip this attempt went to, if it went to a tripped model: only that trip's success may close it. */
  sentToTrip: number | null;
  /** From the attempt's start to its verdict, the body included. */
  totalMs: number;
  /** The key's fingerprint, '' for a provider used without one. */
  fingerprint: string;
  quotaScope: ResolvedProvider['quotaScope'];
  /** What the router changed in the body for this attempt, or null. */
  note: string | null;
  /** The sent body's size in tokens. */
  size: number;
  /** The request's estimated input: a served attempt's tokens when the upstream reports none. */
  estimatedInput: number;
  /** The body already went without an output length: no retry without one. */
  withoutOutputLength: boolean;
  /** When the attempt's request was counted against the key's free-tier budgets; null when it was not. */
  countedAt: number | null;
  /** The request is a health probe's (`source: "probe"`). */
  probe: boolean;
  /** The provider is on this machine (`ResolvedProvider.local`): its network errors are its server's. */
  local: boolean;
}

export type BreakerEffect =
  /** Closes the breaker (an OPEN or HALF_OPEN one only for the trip `sentToTrip` names). */
  | { type: 'success'; sentToTrip: number | null }
  /**
   * Counts against the breaker; as a failed trial (reopening it with a longer cooldown) when `failsAsTrial`
   * says so as it is booked: whether a trial's cooldown had run out is read from the breaker then.
   */
  | { type: 'failure'; kind: FailureKind; role: Role }
  /**
   * A network error of a provider off this machine, booked at the request's end unless the offline rule
   * holds (`settleDeferredNetwork`).
   */
  | { type: 'deferred'; role: Role };

export type PauseEffect =
  | { scope: 'model'; ms: number; authoritative: boolean }
  | { scope: 'provider'; ms: number; authoritative: boolean; reason: ProviderPauseReason };

export type FitEffect =
  /** A ceiling below this size was wrong; features used are taken after all. */
  | { type: 'served'; size: number }
  | { type: 'ceiling'; ceiling: 'context' | 'tpm'; size: number; statedLimit: number | null }
  | { type: 'feature'; feature: 'tools' | 'images' };

/** The model's turn next: done, the provider's next key, or this key again without an output length. */
export type NextTry = 'done' | 'next_key' | 'without_output_length';

/** Everything one attempt's result does, in the order `applyEffects` applies it. */
export interface AttemptEffects {
  /** The attempt as the trace and history show it. */
  view: AttemptView;
  /** The model's speed (a served attempt's). */
  latency: { firstByteMs: number; totalMs: number; completionTokens: number | null } | null;
  /**
   * Tokens counted against the key's budgets (a served attempt's), the provider's rate-limit headers, and
   * the moment of a count to take back: the request never left the machine, so the provider never counted it.
   */
  budget: { tokens: UsageView | null; rateLimit: RateLimitHints | null; uncountAt: number | null };
  /** A served attempt's tokens, for the day's usage and the request's history. */
  usage: UsageView | null;
  /** Kept in the trace for the final answer. */
  failure: Classification | null;
  /** The router's own fault, logged. */
  fault: LocalFault | null;
  breaker: BreakerEffect | null;
  /** A served attempt lifts the key's pauses and its auth block. */
  clearPauses: boolean;
  stats: { ok: boolean; latencyMs: number } | null;
  pause: PauseEffect | null;
  /** The key was refused: blocked until it changes, and for the rest of this request. */
  blockKey: boolean;
  fit: FitEffect | null;
  chain: DispatchResult;
  then: NextTry;
}

type Served = Extract<AttemptVerdict, { type: 'served' }>;
type Failed = Extract<AttemptVerdict, { type: 'failed' }>;

const SERVED: DispatchResult = { type: 'served' };
const NEXT: DispatchResult = { type: 'next' };
const STOP: DispatchResult = { type: 'stop' };

/** What each result sets; every other effect is none. */
type EffectFields = Pick<AttemptEffects, 'view' | 'budget' | 'chain'> & Partial<AttemptEffects>;

/**
 * The effects of a result, every field written in one literal. Not a spread of shared defaults: in Node 20's
 * optimised code a spread copy that then gets a field of its own takes a new hidden class on every call,
 * which costs a map allocation per attempt and sends every later read of the object down the slow path.
 */
function effectsOf(fields: EffectFields): AttemptEffects {
  return {
    view: fields.view,
    latency: fields.latency ?? null,
    budget: fields.budget,
    usage: fields.usage ?? null,
    failure: fields.failure ?? null,
    fault: fields.fault ?? null,
    breaker: fields.breaker ?? null,
    clearPauses: fields.clearPauses ?? false,
    stats: fields.stats ?? null,
    pause: fields.pause ?? null,
    blockKey: fields.blockKey ?? false,
    fit: fields.fit ?? null,
    chain: fields.chain,
    then: fields.then ?? 'done',
  };
}

/**
 * The effects of one attempt's verdict.
 * @example attemptEffects({ type: 'failed', status: 429, failure: classifyFailure(...), ... }, facts)
 *   // { breaker: null, pause: { scope: 'model', ... }, stats: { ok: false, ... }, chain: { type: 'next' },
 *   //   then: 'next_key', ... }
 */
export function attemptEffects(verdict: AttemptVerdict, facts: AttemptFacts): AttemptEffects {
  const rateLimit = verdict.rateLimit ?? null;
  switch (verdict.type) {
    case 'served':
      return servedEffects(verdict, facts, rateLimit);
    case 'failed':
      return failedEffects(verdict, facts, rateLimit);
    case 'fault':
      return effectsOf({
        view: viewOf(verdict, facts, 'internal_error'),
        budget: { tokens: null, rateLimit, uncountAt: verdict.sent ? null : facts.countedAt },
        fault: verdict.fault,
        chain: { type: 'fault', model: facts.model },
      });
  }
}

/**
 * A served attempt's tokens: the upstream's usage, else the request's estimated input (`request-size.ts`,
 * marked so). The budget count and the day's usage both take this figure.
 */
export function servedTokens(reported: UsageView | null, estimatedInput: number): UsageView {
  return reported ?? { promptTokens: estimatedInput, completionTokens: null, estimated: true };
}

/**
 * Whether a failure counts as a failed trial, reopening the breaker with a longer cooldown: the panic try
 * (made while OPEN, when nothing else could be), and a trial once the cooldown has run out (a HALF_OPEN
 * model's turn, or a dashboard Test or probe of it). A Test or probe of an OPEN model before its cooldown
 * ran out may close it early on success, but its failure does not lengthen the outage: it is counted as an
 * OPEN model's failure is (no re-trip, same cooldown).
 */
export function failsAsTrial(role: Role, openUntil: number | null, now: number): boolean {
  if (role === 'panic') return true;
  if (role !== 'trial') return false;
  return openUntil === null || openUntil <= now;
}

function servedEffects(
  verdict: Served,
  facts: AttemptFacts,
  rateLimit: RateLimitHints | null,
): AttemptEffects {
  const tokens = servedTokens(verdict.usage, facts.estimatedInput);
  const { latencyMs } = verdict;
  return effectsOf({
    view: viewOf(verdict, facts, null),
    latency: {
      firstByteMs: latencyMs,
      totalMs: facts.totalMs,
      completionTokens: verdict.usage?.completionTokens ?? null,
    },
    budget: { tokens, rateLimit, uncountAt: null },
    usage: tokens,
    breaker: { type: 'success', sentToTrip: facts.sentToTrip },
    clearPauses: true,
    stats: { ok: true, latencyMs },
    fit: { type: 'served', size: facts.size },
    chain: SERVED,
  });
}

function failedEffects(
  verdict: Failed,
  facts: AttemptFacts,
  rateLimit: RateLimitHints | null,
): AttemptEffects {
  const { failure, committed, latencyMs } = verdict;
  const unreached = probeUnreached(verdict, facts);
  // Blame on the request (the client's) or on nobody leaves the model's record as it was, and so does a
  // key's fault (its rate limit, its credit, its refusal): the model's success rate is about its answers.
  const counts =
    (failure.blame === 'model' || failure.blame === 'provider') && !failure.keyFault && !unreached;
  const view = viewOf(verdict, facts, failure.kind);
  if (unreached) view.unreached = true;
  return effectsOf({
    view,
    budget: { tokens: null, rateLimit, uncountAt: verdict.sent ? null : facts.countedAt },
    failure,
    breaker: unreached ? null : breakerOnFailure(failure, facts),
    stats: counts ? { ok: false, latencyMs } : null,
    pause: pauseOf(failure, facts.quotaScope),
    blockKey: failure.blockProviderAuth,
    fit: committed ? null : fitLesson(failure, facts.size),
    chain: chainAfterFailure(failure, committed, facts.model),
    then: nextTry(verdict, facts),
  });
}

/**
 * A health probe whose request never left the machine (a name that did not resolve, a connection refused)
 * to a provider off this machine: it learnt nothing of the model, so it does no health damage and the
 * prober gives its probe back. An agent's such error is left to the offline rule (`settleDeferredNetwork`).
 * A provider on this machine was reached as far as it can be: its refusal is its server not running.
 */
export function probeUnreached(verdict: Failed, facts: Pick<AttemptFacts, 'probe' | 'local'>): boolean {
  return facts.probe && !facts.local && !verdict.sent && verdict.failure.kind === 'network_error';
}

function breakerOnFailure(failure: Classification, facts: AttemptFacts): BreakerEffect | null {
  // Network errors off this machine wait for the request's end: if every attempt failed that way, the
  // machine is offline. A local server's network error is that server's failure, booked now.
  if (failure.kind === 'network_error' && !facts.local) return { type: 'deferred', role: facts.role };
  if (!failure.healthDamage) return null;
  return { type: 'failure', kind: failure.kind, role: facts.role };
}

/**
 * A pause of the model on this key, or of the whole provider on it when its limits are per key (unless the
 * limit was the model's own upstream's).
 */
function pauseOf(failure: Classification, quotaScope: AttemptFacts['quotaScope']): PauseEffect | null {
  const { pause } = failure;
  if (pause === null) return null;
  const { ms, authoritative } = pause;
  const modelAlone = pause.scope === 'upstream' || (pause.scope === 'model' && quotaScope !== 'key');
  if (modelAlone) return { scope: 'model', ms, authoritative };
  const { kind } = failure;
  const reason = kind === 'payment_required' || kind === 'region_refused' ? kind : 'rate_limit';
  return { scope: 'provider', ms, authoritative, reason };
}

function fitLesson(failure: Classification, size: number): FitEffect | null {
  const { lesson } = failure;
  if (lesson === null) return null;
  if (lesson.type === 'feature') return lesson;
  return { type: 'ceiling', ceiling: lesson.ceiling, size, statedLimit: failure.statedLimit ?? null };
}

/** Nothing sent: the next model, unless none would do better; sent: a broken stream, unless the client left. */
function chainAfterFailure(failure: Classification, committed: boolean, model: string): DispatchResult {
  if (!committed) return failure.failover ? NEXT : STOP;
  return failure.kind === 'client_aborted' ? STOP : { type: 'broken', kind: failure.kind, model };
}

/** A key's fault hands the model to the next key; a 400 the output length may have caused is tried without it. */
function nextTry(verdict: Failed, facts: AttemptFacts): NextTry {
  const { failure } = verdict;
  if (verdict.committed) return 'done';
  if (failure.keyFault) return 'next_key';
  const suspect = verdict.status === 400 && failure.outputLengthSuspect && !facts.withoutOutputLength;
  return suspect ? 'without_output_length' : 'done';
}

/** What the attempt's record says the router changed in the answer. */
export const CALLS_FROM_TEXT_NOTE = "tool calls read from the answer's text";

function viewOf(verdict: AttemptVerdict, facts: AttemptFacts, kind: FailureKind | null): AttemptView {
  const { model, breakerBefore, role, fingerprint, local } = facts;
  const fromText = verdict.type === 'served' && verdict.callsFromText === true;
  const note = fromText ? [facts.note, CALLS_FROM_TEXT_NOTE].filter(Boolean).join('; ') : facts.note;
  return {
    model,
    status: verdict.status,
    kind,
    latencyMs: verdict.latencyMs,
    breakerBefore,
    role,
    ...(note === null ? {} : { note }),
    ...(fingerprint === '' ? {} : { key: fingerprint }),
    ...(local ? { local: true as const } : {}),
  };
}
