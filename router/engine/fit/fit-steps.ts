/**
 * Fitting one request to the models of its chain: which candidates can take it (the others are skipped
 * with their reason in the trace), the conversation's own model first, and the body each is sent (its
 * output length clamped to what the model can give, its reasoning effort for a model that takes it).
 * What an attempt's refusal or success teaches about the model is one of its effects (`attempt-effects.ts`).
 */
import { fitMaxTokens } from '../../faces/max-tokens.js';
import { totalTokens } from '../../faces/request-size.js';
import { BodyTemplate } from '../../upstream/body-template.js';
import type { RequestRun } from '../routing/dispatch.js';
import type { Classification } from '../../gate/failure-classifier.js';
import type { FitSkipReason } from '../../gate/failure-kinds.js';
import { fitVerdict, type FitVerdict } from './fit-check.js';
import { minuteRoomAt } from '../booking/key-choice.js';
import type { ResolvedModel } from '../../config/resolve-config.js';
import type { RankedCandidate } from '../routing/ranking.js';
import type { RequestTrace } from '../answer/request-trace.js';
import type { ChatRequest, RouteContext } from '../routing/route-context.js';

/** What fitting reads of a request being routed (a `RequestRun` is one). */
export interface FitRun {
  ctx: Pick<RouteContext, 'resolved' | 'fits' | 'quotas' | 'sessions'>;
  req: Pick<ChatRequest, 'needs' | 'session' | 'opensConversation'>;
  trace: Pick<RequestTrace, 'skips' | 'largestTooSmall' | 'sticky' | 'refusedKeys'>;
  pinnedModel: ResolvedModel | null;
  /**
   * The fit `skipUnfit` found for the candidate it let through, for its attempt's body (`bodyFor`) to take
   * once, at once: both run in the same turn, so the fit is fitted once per candidate.
   */
  fitted?: { key: string; fit: Fit } | undefined;
}

/** A model's fit for this request; `quota_budget` when its keys' minutes have no room for it yet. */
export type Fit = FitVerdict | { fits: false; reason: 'quota_budget'; until: number };

/** The model `key` names for this run: the pinned one (which may be no model of the config), else the config's. */
export function modelOf(run: Pick<FitRun, 'ctx' | 'pinnedModel'>, key: string): ResolvedModel | undefined {
  return key === run.pinnedModel?.key ? run.pinnedModel : run.ctx.resolved.models.get(key);
}

/** Whether `key` can take the run's request now. */
export function fitNow(run: FitRun, key: string): Fit {
  const { ctx, req } = run;
  const model = modelOf(run, key);
  if (model === undefined) return { fits: true, output: null, size: totalTokens(req.needs) };
  const { tpm } = model.limits;
  const verdict = fitVerdict(req.needs, { fit: model.fit, tpm, learned: ctx.fits.get(key) });
  if (!verdict.fits || tpm === null) return verdict;
  const provider = ctx.resolved.providers.get(model.provider);
  if (provider === undefined) return verdict;
  // Only the keys the attempt could be sent with count: a paused or refused key's room is of no use.
  const until = minuteRoomAt(provider, model, ctx.quotas, run.trace.refusedKeys, verdict.size);
  return until === null ? verdict : { fits: false, reason: 'quota_budget', until };
}

/**
 * Why `key` could not take the run's request even once it is back (its window, a key's whole TPM, tools,
 * images), or null when it could: for a model skipped for its state (open, paused, no key). A size it is
 * too small for joins the trace's largest window too small.
 */
export function unfitReason(run: FitRun, key: string): FitSkipReason | null {
  const verdict = lastingFit(run, key);
  if (verdict.fits) return null;
  if (verdict.limit !== null)
    run.trace.largestTooSmall = Math.max(run.trace.largestTooSmall ?? 0, verdict.limit);
  return verdict.reason;
}

/**
 * Why `key` could not take the run's request even once it is back (see {@link unfitReason}), or null when
 * it could; records nothing.
 */
export function unfitOnceBack(run: FitRun, key: string): FitSkipReason | null {
  const verdict = lastingFit(run, key);
  return verdict.fits ? null : verdict.reason;
}

/** `key`'s fit for the run's request leaving the minute's room aside: what waiting would not change. */
function lastingFit(run: FitRun, key: string): FitVerdict {
  const model = modelOf(run, key);
  if (model === undefined) return { fits: true, output: null, size: totalTokens(run.req.needs) };
  const learned = run.ctx.fits.get(key);
  return fitVerdict(run.req.needs, { fit: model.fit, tpm: model.limits.tpm, learned });
}

/**
 * Whether the request's input alone fits `key` as far as is known now (after what its refusal taught):
 * retrying it without an output length is worth an attempt only then.
 */
export function inputFits(run: FitRun, key: string): boolean {
  const model = modelOf(run, key);
  if (model === undefined) return true;
  const needs = { ...run.req.needs, output: null };
  return fitVerdict(needs, { fit: model.fit, tpm: null, learned: run.ctx.fits.get(key) }).fits;
}

/** The fit `skipUnfit` just found for `key` (taken once), else `key`'s fit now. */
function takeFit(run: FitRun, key: string): Fit {
  const fitted = run.fitted;
  run.fitted = undefined;
  return fitted !== undefined && fitted.key === key ? fitted.fit : fitNow(run, key);
}

/** Records a skip for a model that cannot take the request; false when it can. */
export function skipUnfit(run: FitRun, key: string): boolean {
  const fit = fitNow(run, key);
  if (fit.fits) {
    run.fitted = { key, fit };
    return false;
  }
  const { trace } = run;
  // A model skipped already (for its state, before the panic try fits it) keeps the reason it was given.
  if (trace.skips.some((skip) => skip.model === key)) return true;
  if (fit.reason === 'quota_budget') {
    trace.skips.push({ model: key, reason: 'quota_budget', until: fit.until });
    return true;
  }
  if (fit.limit === null) {
    trace.skips.push({ model: key, reason: fit.reason });
    return true;
  }
  trace.skips.push({ model: key, reason: fit.reason, limit: fit.limit });
  trace.largestTooSmall = Math.max(trace.largestTooSmall ?? 0, fit.limit);
  return true;
}

/**
 * The order with the conversation's own model first when it can take the request (noted in the trace as
 * `sticky`). The others are fitted in their turn as the chain walks (`skipUnfit`): a request is served by
 * one of its first candidates, so the rest of a long set is never looked at.
 */
export function homeFirst(run: FitRun, order: readonly RankedCandidate[]): readonly RankedCandidate[] {
  const { session, opensConversation } = run.req;
  const home = session === null || opensConversation ? null : run.ctx.sessions.home(session);
  if (home === null) return order;
  const at = order.findIndex((candidate) => candidate.key === home);
  if (at < 0 || !fitNow(run, home).fits) return order;
  run.trace.sticky = home;
  if (at === 0) return order;
  return [order[at] as RankedCandidate, ...order.slice(0, at), ...order.slice(at + 1)];
}

/** The body an attempt sends, what the router changed in it (for the trace) and its size in tokens. */
export interface SentBody {
  body: BodyTemplate;
  note: string | null;
  size: number;
}

/**
 * The body for `model`: the agent's, with its output length clamped to what the model gives or its window
 * leaves (noted in the trace), and the agent's reasoning effort for a model that takes `reasoning_effort`.
 */
export function bodyFor(run: RequestRun, model: ResolvedModel): SentBody {
  const { needs, body, effort } = run.req;
  const fit = takeFit(run, model.key);
  const output = fit.fits ? fit.output : null;
  const clamped =
    output === null
      ? { body, note: null }
      : fitMaxTokens(body, output, "what the model's window and output limit leave");
  const withEffort = effort != null && model.fit.reasoningEffort && body.reasoning_effort === undefined;
  const size = fit.fits && clamped.note !== null ? fit.size : totalTokens(needs);
  if (clamped.note === null && !withEffort) return { body: run.body, note: null, size };
  const id = `${clamped.note === null ? '' : String(output)}|${withEffort ? effort : ''}`;
  run.variants ??= new Map();
  let template = run.variants.get(id);
  if (template === undefined) {
    template = new BodyTemplate(withEffort ? { ...clamped.body, reasoning_effort: effort } : clamped.body);
    run.variants.set(id, template);
  }
  return { body: template, note: clamped.note, size };
}

/** Fit failures and skips: a request that only met these fits none of its models. */
export const FIT_REASONS: ReadonlySet<string> = new Set<FitSkipReason | Classification['kind']>([
  'context_window',
  'context_length',
  'over_tpm',
  'no_tool_support',
  'no_image_support',
]);
