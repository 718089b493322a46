/**
 * How a routed request ends once its chain is done: the answer it still needs (the face's error ending of
 * a broken stream, or the error when nothing served: what it was, and when to come back), and the name of
 * the ending its history entry records.
 */
import type { Classification } from '../../gate/failure-classifier.js';
import type { FailureKind, RequestOutcome } from '../../gate/failure-kinds.js';
import type { ErrorAnswer } from '../../faces/answer-encoder.js';
import { totalTokens } from '../../faces/request-size.js';
import {
  INTERNAL_ERROR_ANSWER,
  STOPPING_ANSWER,
  allFailedAnswer,
  clientError,
  nothingFitsAnswer,
  unavailableAnswer,
} from '../answer/final-answer.js';
import { outForGood, rateLimitsHold, soonestBackAt, type ModelOut } from '../answer/models-out.js';
import { pausedOut, skipOut } from '../booking/request-bookkeeping.js';
import { FIT_REASONS, unfitOnceBack, unfitReason } from '../fit/fit-steps.js';
import type { DispatchResult, RequestRun } from './dispatch.js';

/** Failures that pause the model or its key: its pause says when it is back, for Retry-After. */
const PAUSING_KINDS: ReadonlySet<FailureKind> = new Set(['rate_limit', 'payment_required', 'region_refused']);

/**
 * Failures that leave the model out of the request for good: it refused the request as too large for it,
 * or for tools or images it does not take, or its key was refused. No wait brings it back for this request.
 */
const LASTING_KINDS: ReadonlySet<string> = new Set([...FIT_REASONS, 'auth_error']);

/** How a request's routing ended, as its history entry records it. */
export interface Ending {
  outcome: RequestOutcome;
  clientStatus: number;
}

/** Answers what the chain left unanswered (a served or refused answer is out already) and names the ending. */
export function finalAnswer(run: RequestRun, last: DispatchResult | null): Ending {
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
 * The error when nothing served. With no attempt, or when the attempts met rate limits (beside refusals
 * that leave their models out for good) and something other than a rate limit holds models back, or models
 * out for good stand beside them, the models' standing decides, as it will for the next request: 429 when
 * rate limits are what hold them (`rateLimitsHold`). Else what the attempts met.
 */
function nothingServedAnswer(run: RequestRun, outcome: 'no_candidates' | 'all_failed'): ErrorAnswer {
  const { trace, ctx } = run;
  const outs = modelsOut(run);
  const { failures } = trace;
  if (outcome === 'no_candidates' || standingDecides(failures, outs))
    return unavailableAnswer(outs, ctx.clock());
  return pinnedUnknown(run) ?? allFailedAnswer(failures, soonestBackAt(outs), ctx.clock());
}

/**
 * Whether the models' standing, not the attempts' failures, says what the agent gets: the attempts met a
 * rate limit and nothing else but refusals that last, and either such a refusal is among them or the
 * standing is not rate limits alone. Attempts that met rate limits alone, with nothing else holding the
 * set, keep the attempts' own 429.
 */
function standingDecides(failures: readonly Classification[], outs: readonly ModelOut[]): boolean {
  const kinds = new Set<string>(failures.map((failure) => failure.kind));
  if (!kinds.has('rate_limit')) return false;
  if ([...kinds].some((kind) => kind !== 'rate_limit' && !LASTING_KINDS.has(kind))) return false;
  return kinds.size > 1 || !rateLimitsHold(outs);
}

/**
 * Each model the request could not be served by, besides those that failed it otherwise: the skipped ones
 * (a model the request is too large for, or needs tools or images of, is no reason to come back), the ones
 * its attempts paused, and the ones whose refusal leaves them out for good.
 */
function modelsOut(run: RequestRun): ModelOut[] {
  const { trace, ctx } = run;
  const outs: ModelOut[] = [];
  for (const skip of trace.skips)
    if (skip.reason !== 'already_tried') outs.push(skipOut(ctx, skip, unfitOnceBack(run, skip.model)));
  for (const attempt of trace.attempts) {
    if (attempt.kind === null) continue;
    if (PAUSING_KINDS.has(attempt.kind)) outs.push(pausedOut(ctx, attempt.model, attempt.kind));
    else if (LASTING_KINDS.has(attempt.kind)) outs.push(outForGood(attempt.kind));
  }
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
