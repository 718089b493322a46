import type { HistoryEntry } from '../../api-types.js';
import { BodyTemplate } from '../../upstream/body-template.js';
import type { Answer } from '../answer/answer.js';
import { PAUSED_ANSWER, PAUSED_HEADERS, STOPPING_ANSWER } from '../answer/final-answer.js';
import { totalTokens } from '../../faces/request-size.js';
import { dispatch, type DispatchResult, type RequestRun } from './dispatch.js';
import { finalAnswer, type Ending } from './request-ending.js';
import { afterBreak } from '../stream/continuation.js';
import { checkedToolNames, forcedToolNames } from '../../gate/answer-rules.js';
import { dispatchHedged, type ChainStep } from './hedge.js';
import { hedgeDelayMs } from './hedge-delay.js';
import type { RouteTarget } from './model-names.js';
import { lastResortKey, rankSet, roleNow } from './chain-steps.js';
import { homeFirst, skipUnfit } from '../fit/fit-steps.js';
import { settleDeferredNetwork, settleRefusals } from '../booking/request-bookkeeping.js';
import type { RankedCandidate } from './ranking.js';
import type { Role } from '../answer/request-trace.js';
import type { ChatRequest, RouteContext } from './route-context.js';

export type { ChatRequest, RouteContext } from './route-context.js';
export type { Ending } from './request-ending.js';

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
  const tools = checkedToolNames(req.body, ctx.resolved.config.router.failover.contentValidation);
  const run: RequestRun = {
    ctx,
    req,
    answer,
    trace: answer.trace,
    body: new BodyTemplate(req.body),
    deadline: started + ctx.resolved.config.router.failover.totalBudgetMs,
    pinnedModel: target.type === 'pinned' ? target.model : null,
    tools,
    forced: forcedToolNames(req.body, tools),
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
