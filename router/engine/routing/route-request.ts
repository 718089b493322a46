import type { HistoryEntry } from '../../api-types.js';
import type { FailureKind, RequestOutcome } from '../../gate/failure-kinds.js';
import { BodyTemplate } from '../../upstream/body-template.js';
import type { Answer } from '../answer/answer.js';
import {
  INTERNAL_ERROR_ANSWER,
  PAUSED_ANSWER,
  PAUSED_HEADERS,
  STOPPING_ANSWER,
  allFailedAnswer,
  clientError,
  nothingFitsAnswer,
  onlyRateLimited,
  soonestBackAt,
  unavailableAnswer,
  type ModelOut,
} from '../answer/final-answer.js';
import type { ErrorAnswer } from '../../faces/answer-encoder.js';
import { totalTokens } from '../../faces/request-size.js';
import { dispatch, type DispatchResult, type RequestRun } from './dispatch.js';
import { afterBreak } from '../stream/continuation.js';
import { checkedToolNames } from '../../gate/answer-rules.js';
import { dispatchHedged, type ChainStep } from './hedge.js';
import { hedgeDelayMs } from './hedge-delay.js';
import type { RouteTarget } from './model-names.js';
import { lastResortKey, rankSet, roleNow } from './chain-steps.js';
import { FIT_REASONS, homeFirst, skipUnfit, takesOnceBack, unfitReason } from '../fit/fit-steps.js';
import { pausedOut, settleDeferredNetwork, settleRefusals, skipOut } from '../booking/request-bookkeeping.js';
import type { RankedCandidate } from './ranking.js';
import type { Role } from '../answer/request-trace.js';
import type { ChatRequest, RouteContext } from './route-context.js';

/** Failures that pause the model or its key: its pause says when it is back, for Retry-After. */
const PAUSING_KINDS: ReadonlySet<FailureKind> = new Set(['rate_limit', 'payment_required', 'region_refused']);

export type { ChatRequest, RouteContext } from './route-context.js';

/** How a request's routing ended, as its history entry records it. */
export interface Ending {
  outcome: RequestOutcome;
  clientStatus: number;
}

/**
 * Routes one request to its target (a set or a pinned model, read from its model name by the caller), ranks the set, walks the chain of
 * candidates until one serves real content (or the attempt cap, the budget or the candidates run out), tries
 * the last resort or the panic try, and gives the final answer. The answer object writes every byte;
 * breakers, pauses and stats are booked per attempt. Returns the history entry.
 */
export async function routeRequest(
  ctx: RouteContext,
  req: ChatRequest,
  answer: Answer,
  target: RouteTarget,
): Promise<HistoryEntry> {
  const started = ctx.clock();
  if (ctx.isPaused()) {
    answer.refuse(PAUSED_ANSWER, 'rejected', PAUSED_HEADERS);
    const ending: Ending = { outcome: 'rejected', clientStatus: 503 };
    return historyEntry(req, answer, { target: null, started, ended: started, ending });
  }
  // The router is stopping: a request that reaches routing after its cut is not begun.
  if (req.clientGone.endedBy === 'router_stopping') {
    answer.refuse(STOPPING_ANSWER, 'rejected');
    const ending: Ending = { outcome: 'rejected', clientStatus: STOPPING_ANSWER.status };
    return historyEntry(req, answer, { target: null, started, ended: started, ending });
  }
  if (target.type === 'refused') {
    answer.refuse(target.error, 'rejected');
    const ending: Ending = { outcome: 'rejected', clientStatus: 404 };
    return historyEntry(req, answer, { target, started, ended: ctx.clock(), ending });
  }
  // Gemini's thought signatures are for Google alone: its body preset puts them back.
  ctx.signatures.setAside(req.body);
  const run: RequestRun = {
    ctx,
    req,
    answer,
    trace: answer.trace,
    body: new BodyTemplate(req.body),
    deadline: started + ctx.resolved.config.router.failover.totalBudgetMs,
    pinnedModel: target.type === 'pinned' ? target.model : null,
    tools: checkedToolNames(req.body, ctx.resolved.config.router.failover.contentValidation),
  };
  const last =
    target.type === 'pinned'
      ? await dispatch(run, target.model.key, pinnedRole(run, target.model.key))
      : await walkSet(run, target.set, target.name);
  settleDeferredNetwork(ctx, run.trace);
  settleRefusals(ctx, run.trace);
  // The conversation lives where its turn was served: the same model, or the one it moved to.
  if (req.session !== null && run.trace.served !== null) ctx.sessions.served(req.session, run.trace.served);
  const ending = finalAnswer(run, last);
  return historyEntry(req, answer, { target, started, ended: ctx.clock(), ending });
}

/**
 * A pinned model is tried whatever its state; the dashboard's Test of a tripped model, and a health probe
 * of one, is that model's trial (how it is brought back): its success closes the breaker, its failure
 * reopens it.
 */
function pinnedRole(run: RequestRun, key: string): Role {
  const state = run.ctx.breakers.get(key).state;
  return run.req.source !== 'agent' && (state === 'OPEN' || state === 'HALF_OPEN') ? 'trial' : 'pinned';
}

/** The set's chain, then the last resort and the panic try when nothing was served. */
async function walkSet(
  run: RequestRun,
  set: readonly string[],
  name: string,
): Promise<DispatchResult | null> {
  const ranking = rankSet(run, set, name);
  let last = await walkChain(run, homeFirst(run, ranking.order));
  if (last !== null && last.type !== 'next') return last;
  const lastResort = lastResortKey(run);
  if (lastResort !== null) {
    run.trace.lastResortUsed = true;
    last = await dispatch(run, lastResort, 'last_resort');
    if (last.type === 'broken') last = afterBreak(run, last);
    if (last.type !== 'next') return last;
  }
  const { trace, req, ctx, deadline } = run;
  if (trace.attempts.length === 0 && !req.clientGone.gone && ctx.clock() < deadline) {
    // Each OPEN model is in the trace already (`circuit_open`): one the request does not fit adds no skip.
    const panic = ranking.panic.find((key) => !skipUnfit(run, key));
    if (panic !== undefined) last = await dispatch(run, panic, 'panic');
  }
  return last;
}

/**
 * Tries the ranked candidates in order until one ends the request, or the cap or the budget is reached; a
 * candidate that cannot take the request (size, tools, images, the minute's room) is skipped in its turn.
 * With hedging on, an attempt that commits nothing within its hedge delay gets the next candidate in its
 * plain turn alongside it (once per request). A stream that breaks after content is finished by the next
 * candidates in their turn (`afterBreak`), as continuations: never hedged.
 */
async function walkChain(run: RequestRun, order: readonly RankedCandidate[]): Promise<DispatchResult | null> {
  const { trace, ctx } = run;
  const { failover } = ctx.resolved.config.router;
  let index = 0;
  /** The next candidate to try now, or null; with `plainOnly`, null too when its turn is a trial. */
  const next = (plainOnly = false): ChainStep | null => {
    while (index < order.length) {
      if (trace.attempts.length + trace.runningCount >= failover.maxAttempts || ctx.clock() >= run.deadline)
        return null;
      const candidate = order[index++] as RankedCandidate;
      if (trace.tried.has(candidate.key) || skipUnfit(run, candidate.key)) continue;
      const role = roleNow(run, candidate);
      if (role === null) continue;
      if (plainOnly && role !== 'normal') {
        index -= 1;
        return null;
      }
      if (run.continuation === undefined) return { key: candidate.key, role };
      // An answer under way is not a model's trial: its trial waits for a request of its own.
      if (role === 'normal') return { key: candidate.key, role: 'continuation' };
      trace.skips.push({ model: candidate.key, reason: 'trial_due' });
    }
    return null;
  };
  let hedgeLeft = failover.hedgeAfterMs !== null;
  let last: DispatchResult | null = null;
  for (let step = next(); step !== null; step = next()) {
    const delay = hedgeLeft && !run.continuation ? hedgeDelayMs(failover, ctx.latency.get(step.key)) : null;
    if (delay === null) last = await dispatch(run, step.key, step.role);
    else {
      const race = await dispatchHedged(run, step, delay, () => next(true));
      hedgeLeft = !race.hedged;
      last = race.result;
    }
    if (last.type === 'broken') last = afterBreak(run, last);
    if (last.type !== 'next') break;
  }
  return last;
}

/** Answers what the chain left unanswered (a served or refused answer is out already) and names the ending. */
function finalAnswer(run: RequestRun, last: DispatchResult | null): Ending {
  const { answer, trace, req } = run;
  if (last?.type === 'served') return { outcome: 'served', clientStatus: 200 };
  if (last?.type === 'broken') {
    answer.failStream(last.kind, last.model);
    return { outcome: 'partial', clientStatus: 200 };
  }
  if (last?.type === 'fault') {
    if (answer.started) {
      answer.failStream('internal_error', last.model);
      return { outcome: 'partial', clientStatus: 200 };
    }
    answer.refuse(INTERNAL_ERROR_ANSWER, 'internal_error');
    return { outcome: 'internal_error', clientStatus: 500 };
  }
  if (req.clientGone.endedBy === 'router_stopping') return cutByStop(run);
  if (req.clientGone.gone || trace.failures.some((failure) => failure.kind === 'client_aborted')) {
    answer.close();
    return { outcome: 'client_aborted', clientStatus: 499 };
  }
  // Nothing finished an answer that broke: the client keeps it, with the face's error ending.
  if (run.continuation) {
    answer.failStream(run.continuation.broke.kind, run.continuation.broke.model);
    return { outcome: 'partial', clientStatus: 200 };
  }
  // A request no model of the set can take is refused for what it is, not counted against the set.
  const unfit = unfitAnswer(run);
  if (unfit !== null) {
    answer.refuse(unfit, 'rejected');
    return { outcome: 'rejected', clientStatus: unfit.status };
  }
  const outcome = trace.attempts.length === 0 ? 'no_candidates' : 'all_failed';
  const error = nothingServedAnswer(run, outcome);
  answer.refuse(error, outcome);
  return { outcome, clientStatus: error.status };
}

/**
 * The error when nothing served. With no attempt, or when every attempt met a rate limit but something
 * else holds other models back (no key, an OPEN breaker, a 402's pause), the models' standing decides, as
 * it will for the next request: 429 only when rate limits alone hold them. Else what the attempts met.
 */
function nothingServedAnswer(run: RequestRun, outcome: 'no_candidates' | 'all_failed'): ErrorAnswer {
  const { trace, ctx } = run;
  const outs = modelsOut(run);
  const { failures } = trace;
  const rateLimitsMet = failures.length > 0 && failures.every((failure) => failure.kind === 'rate_limit');
  if (outcome === 'no_candidates' || (rateLimitsMet && !onlyRateLimited(outs)))
    return unavailableAnswer(outs, ctx.clock());
  return pinnedUnknown(run) ?? allFailedAnswer(failures, soonestBackAt(outs), ctx.clock());
}

/**
 * Each model the request could not be served by, besides those that failed it otherwise: the skipped ones
 * (a model the request is too large for, or needs tools or images of, is no reason to come back) and the
 * ones its attempts paused.
 */
function modelsOut(run: RequestRun): ModelOut[] {
  const { trace, ctx } = run;
  const outs: ModelOut[] = [];
  for (const skip of trace.skips)
    if (skip.reason !== 'already_tried') outs.push(skipOut(ctx, skip, takesOnceBack(run, skip.model)));
  for (const attempt of trace.attempts)
    if (attempt.kind !== null && PAUSING_KINDS.has(attempt.kind))
      outs.push(pausedOut(ctx, attempt.model, attempt.kind));
  return outs;
}

/**
 * The stopping router ended the request when its grace ran out: an answer under way (a continuation's) gets
 * the face's error ending, one not begun a 503 in the face's shape (written only if the socket still takes
 * it). No model is blamed.
 */
function cutByStop(run: RequestRun): Ending {
  const { answer, trace } = run;
  if (answer.started) {
    const model = run.continuation?.broke.model ?? trace.attempts.at(-1)?.model ?? 'fcm-router';
    answer.failStream('router_stopping', model);
    return { outcome: 'partial', clientStatus: 200 };
  }
  answer.refuse(STOPPING_ANSWER, 'rejected');
  return { outcome: 'rejected', clientStatus: STOPPING_ANSWER.status };
}

/**
 * A pinned model its provider does not know (every attempt a 404): the agent's name is wrong, so it gets
 * the 404 an unknown name gets, not a 502 its SDK would retry. Null otherwise.
 */
function pinnedUnknown(run: RequestRun): ErrorAnswer | null {
  const { pinnedModel, trace } = run;
  const { failures } = trace;
  if (pinnedModel === null || failures.length === 0) return null;
  if (failures.some((failure) => failure.kind !== 'model_not_found')) return null;
  const message = `fcm-router: ${pinnedModel.provider} does not know the model "${pinnedModel.modelId}" (it answered 404)`;
  return clientError(404, 'model_not_found', message);
}

/**
 * The answer when no model of the set could take the request (size, tools, images), else null: each was
 * skipped or refused for fit, or skipped for its state (open, paused, no key) but too small for it even
 * once back. Waiting would not help, so the agent is told to shrink the request.
 */
function unfitAnswer(run: RequestRun): ErrorAnswer | null {
  const { trace, req } = run;
  if (trace.failures.some((failure) => !FIT_REASONS.has(failure.kind))) return null;
  const reasons = new Set<string>(trace.failures.map((failure) => failure.kind));
  for (const { model, reason } of trace.skips) {
    if (reason === 'already_tried') continue;
    const unfit = FIT_REASONS.has(reason) ? reason : unfitReason(run, model);
    if (unfit === null) return null;
    reasons.add(unfit);
  }
  if (reasons.size === 0) return null;
  return nothingFitsAnswer(totalTokens(req.needs), trace.largestTooSmall, reasons);
}

/** How a request's routing went: its target (null: refused before one), when it started and ended, its ending. */
export interface RoutingSpan {
  target: RouteTarget | null;
  started: number;
  ended: number;
  ending: Ending;
}

/** The request's history entry: its decision trace and how its routing went. */
export function historyEntry(req: ChatRequest, answer: Answer, span: RoutingSpan): HistoryEntry {
  const { trace } = answer;
  const { target, started, ending } = span;
  return {
    requestId: req.requestId,
    at: started,
    modelRequested: req.modelRequested,
    set: target?.type === 'set' ? target.name : null,
    pinned: target?.type === 'pinned' ? target.model.key : target?.type === 'refused' ? target.pinned : null,
    servedModel: trace.served,
    outcome: ending.outcome,
    stream: req.stream,
    wallMs: span.ended - started,
    attempts: trace.attempts,
    skipped: trace.skips,
    client: req.client,
    clientStatus: ending.clientStatus,
    lastResortUsed: trace.lastResortUsed,
    usage: trace.usage,
    source: req.source,
    api: answer.face,
    size: totalTokens(req.needs),
    ...(req.session === null ? {} : { session: req.session }),
    ...(trace.sticky === null ? {} : { sticky: trace.sticky }),
    ...(trace.behind.length === 0 ? {} : { behind: [...trace.behind] }),
    ...(trace.refusal === null ? {} : { refusal: trace.refusal }),
  };
}
