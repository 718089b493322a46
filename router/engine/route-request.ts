import type { HistoryEntry } from '../api-types.js';
import { lookupModel } from '../config/resolve-config.js';
import type { RequestOutcome } from '../gate/failure-kinds.js';
import type { Clock } from '../state/clock.js';
import { BodyTemplate } from '../upstream/body-template.js';
import { runAttempt, type AttemptResult } from './attempt.js';
import { candidateFacts, providerFingerprint } from './candidate-facts.js';
import {
  allFailedAnswer,
  midStreamErrorFrame,
  noCandidatesAnswer,
  type ErrorAnswer,
} from './final-answer.js';
import { parseModelName } from './model-names.js';
import { rankCandidates, type RankedCandidate } from './ranking.js';
import { bookFailure, bookSuccess, settleDeferredNetwork, soonestRetryAt } from './request-bookkeeping.js';
import { RequestTrace, type Role } from './request-trace.js';
import type { ChatRequest, ChatResponder, RouteContext } from './route-context.js';

export type { ChatRequest, ChatResponder, RouteContext } from './route-context.js';

/**
 * Routes one chat request: picks the set or pinned model, ranks candidates, runs attempts until one serves
 * real content (or the attempt cap, the budget or the candidates run out), updates breakers, pauses and
 * stats, answers the client with decision headers, and returns the history entry.
 */
export async function routeRequest(
  ctx: RouteContext,
  req: ChatRequest,
  res: ChatResponder,
): Promise<HistoryEntry> {
  const { resolved, clock } = ctx;
  const started = clock();
  const { failover, breaker: breakerSettings } = resolved.config.router;
  const deadline = started + failover.totalBudgetMs;
  const trace = new RequestTrace();
  const target = parseModelName(req.modelRequested, resolved.sets, resolved.activeSet);
  const finish = (
    outcome: RequestOutcome,
    clientStatus: number,
    set: string | null,
    pinned: string | null,
  ): HistoryEntry => ({
    requestId: req.requestId,
    at: started,
    modelRequested: req.modelRequested,
    set,
    pinned,
    servedModel: trace.served,
    outcome,
    stream: req.stream,
    wallMs: clock() - started,
    attempts: trace.attempts,
    skipped: trace.skips,
    client: req.client,
    clientStatus,
    lastResortUsed: trace.lastResortUsed,
    usage: trace.usage,
  });

  if (target.type === 'unknown_set') {
    const answer: ErrorAnswer = {
      status: 404,
      code: 'model_not_found',
      type: 'invalid_request_error',
      message: `fcm-router: no set named "${target.set}" (sets: ${Object.keys(resolved.sets).join(', ') || 'none'})`,
      retryAfterSec: null,
    };
    res.sendError(answer, trace.headers('rejected', req.requestId));
    return finish('rejected', 404, null, null);
  }
  const pinnedModel = target.type === 'pinned' ? lookupModel(resolved, target.model) : null;
  if (target.type === 'pinned' && !pinnedModel) {
    const answer: ErrorAnswer = {
      status: 404,
      code: 'model_not_found',
      type: 'invalid_request_error',
      message: `fcm-router: unknown provider in "${target.model}" (expected provider/modelId)`,
      retryAfterSec: null,
    };
    res.sendError(answer, trace.headers('rejected', req.requestId));
    return finish('rejected', 404, null, target.model);
  }

  const body = new BodyTemplate(req.body);
  const setName = target.type === 'set' ? target.set : null;
  const pinned = target.type === 'pinned' ? target.model : null;
  let committedFailure: { result: Extract<AttemptResult, { ok: false }>; model: string } | null = null;

  const dispatch = async (key: string, role: Role): Promise<'served' | 'failed' | 'stop'> => {
    const model = key === pinnedModel?.key ? pinnedModel : resolved.models.get(key);
    const provider = model ? resolved.providers.get(model.provider) : undefined;
    if (!model || !provider || provider.baseUrl === null) {
      trace.skips.push({ model: key, reason: model ? 'provider_unresolvable' : 'unknown_model' });
      return 'failed';
    }
    const isTrial = role === 'trial' || role === 'panic';
    if (isTrial && !ctx.breakers.tryAcquireTrial(key)) {
      trace.skips.push({ model: key, reason: 'half_open_busy' });
      return 'failed';
    }
    const breakerBefore = ctx.breakers.get(key).state;
    trace.tried.add(key);
    // The decision headers of this attempt's success.
    const servedHeaders = (status: number): Record<string, string> =>
      trace.servedHeaders(req.requestId, {
        model: key,
        status,
        kind: null,
        latencyMs: 0,
        breakerBefore,
        role,
      });
    // Those of a plain 200, built while the upstream computes (`StreamSink.prepare`); the answer that
    // carries them completes them in place, so they are taken once.
    let prepared: Record<string, string> | null = null;
    const takeServed = (status: number): Record<string, string> => {
      const headers = status === 200 && prepared !== null ? prepared : servedHeaders(status);
      prepared = null;
      return headers;
    };
    let result: AttemptResult;
    try {
      result = await runAttempt({
        model,
        provider,
        body,
        clientHeaders: req.clientHeaders,
        requestId: req.requestId,
        stream: req.stream,
        failover,
        deadline,
        clock,
        client: req.clientGone,
        upstream: ctx.upstream,
        sink: {
          prepare: () => {
            prepared ??= servedHeaders(200);
          },
          sendJson: (status, body) => {
            trace.served = key;
            res.sendJson(200, body, takeServed(status));
          },
          commit: () => {
            trace.served = key;
            res.commitStream(takeServed(200));
          },
          write: (chunk) => res.write(chunk),
          end: () => res.endStream(null),
        },
      });
    } finally {
      if (isTrial) ctx.breakers.releaseTrial(key);
    }
    trace.attempts.push({
      model: key,
      status: result.status,
      kind: result.ok ? null : result.failure.kind,
      latencyMs: result.latencyMs,
      breakerBefore,
      role,
    });
    if (result.ok) {
      trace.served = key;
      trace.succeeded = true;
      trace.usage = result.usage;
      // The client has its answer already (sent by the attempt): the bookkeeping comes after it.
      bookSuccess(ctx, key, provider.id, result.latencyMs);
      return 'served';
    }
    const { failure } = result;
    bookFailure(ctx, trace, key, provider, role, failure, result.latencyMs);
    if (result.committed) {
      if (failure.kind !== 'client_aborted') committedFailure = { result, model: key };
      return 'stop';
    }
    return failure.failover ? 'failed' : 'stop';
  };

  if (pinned) {
    await dispatch(pinned, 'pinned');
  } else {
    const set = resolved.sets[setName ?? resolved.activeSet] ?? [];
    const facts = (key: string) =>
      candidateFacts(key, resolved, ctx.breakers, ctx.quotas, trace.blockedProviders);
    const ranking = ctx.rankings.rank(
      { set, resolved, breakerVersion: ctx.breakers.version, quotaVersion: ctx.quotas.version },
      () => rankCandidates(set, facts, clock(), breakerSettings),
    );
    trace.skips.push(...ranking.skips);
    await runChain(ranking.order, facts, trace, failover.maxAttempts, deadline, clock, dispatch);
    const lastResort = failover.lastResortModel;
    if (
      !trace.served &&
      !committedFailure &&
      !req.clientGone.gone &&
      lastResort &&
      !trace.tried.has(lastResort) &&
      clock() < deadline
    ) {
      const provider = resolved.providers.get(resolved.models.get(lastResort)?.provider ?? '');
      // Breaker and quota state are ignored, but a refused key is not: it would only refuse again.
      const refused =
        provider !== undefined &&
        (trace.blockedProviders.has(provider.id) ||
          ctx.quotas.isAuthBlocked(provider.id, providerFingerprint(provider)));
      if (refused) trace.skips.push({ model: lastResort, reason: 'auth_error' });
      else if (provider) {
        trace.lastResortUsed = true;
        await dispatch(lastResort, 'last_resort');
      }
    }
    if (trace.attempts.length === 0 && ranking.panic && !req.clientGone.gone && clock() < deadline) {
      await dispatch(ranking.panic, 'panic');
    }
  }
  settleDeferredNetwork(ctx, trace);

  // A served request is answered already: its JSON as it passed the gate, its stream as the upstream ended.
  if (trace.succeeded) return finish('served', 200, setName, pinned);
  if (committedFailure) {
    const { result, model } = committedFailure as {
      result: Extract<AttemptResult, { ok: false }>;
      model: string;
    };
    res.endStream(midStreamErrorFrame(result.failure.kind, model));
    return finish('partial', 200, setName, pinned);
  }
  if (req.clientGone.gone || trace.failures.some((failure) => failure.kind === 'client_aborted')) {
    res.endStream(null);
    return finish('client_aborted', 499, setName, pinned);
  }
  const outcome: RequestOutcome = trace.attempts.length === 0 ? 'no_candidates' : 'all_failed';
  // Only a failed request needs it: a served one skips the walk over its skips.
  const soonest = soonestRetryAt(ctx, [
    ...trace.skips,
    ...trace.attempts
      .filter((attempt) => attempt.kind === 'rate_limit' || attempt.kind === 'payment_required')
      .map((attempt) => ({ model: attempt.model, reason: 'quota_paused' as const })),
  ]);
  const answer =
    outcome === 'no_candidates'
      ? noCandidatesAnswer(trace.skips, soonest, clock())
      : allFailedAnswer(trace.failures, soonest, clock());
  res.sendError(answer, trace.headers(outcome, req.requestId));
  return finish(outcome, answer.status, setName, pinned);
}

/** Walks the ranked candidates until one serves, the attempt cap or the budget is reached. */
async function runChain(
  order: readonly RankedCandidate[],
  facts: (key: string) => ReturnType<typeof candidateFacts>,
  trace: RequestTrace,
  maxAttempts: number,
  deadline: number,
  clock: Clock,
  dispatch: (key: string, role: Role) => Promise<'served' | 'failed' | 'stop'>,
): Promise<void> {
  for (const candidate of order) {
    if (trace.attempts.length >= maxAttempts || clock() >= deadline) return;
    if (trace.tried.has(candidate.key)) continue;
    // State may have moved since ranking (a sibling 401'd, another request tripped this breaker).
    const now = facts(candidate.key);
    if (now.blocked) {
      trace.skips.push({ model: candidate.key, reason: now.blocked });
      continue;
    }
    if (now.breaker.state === 'OPEN') {
      trace.skips.push({ model: candidate.key, reason: 'circuit_open' });
      continue;
    }
    const role = now.breaker.state === 'HALF_OPEN' ? 'trial' : candidate.role;
    const verdict = await dispatch(candidate.key, role);
    if (verdict !== 'failed') return;
  }
}
