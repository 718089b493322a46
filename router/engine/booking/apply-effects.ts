/**
 * Carries out one attempt's effects (`attempt-effects.ts`) on the engine's stores and the request's trace.
 * No decisions here: what a result means was decided as data; this only writes it where it belongs.
 */
import type { ProviderKey, ResolvedModel, ResolvedProvider } from '../../config/resolve-config.js';
import { faultTrace } from '../../upstream/exchange-errors.js';
import {
  type AttemptEffects,
  type BreakerEffect,
  type FitEffect,
  type PauseEffect,
} from './attempt-effects.js';
import { bookBreakerFailure, countAttemptEnd } from './request-bookkeeping.js';
import { keyId } from './key-rotation.js';
import type { RequestTrace } from '../answer/request-trace.js';
import type { ChatRequest, RouteContext } from '../routing/route-context.js';

/** What applying reads of a request being routed (a `RequestRun` is one). */
export interface EffectRun {
  ctx: RouteContext;
  req: Pick<ChatRequest, 'needs' | 'source'>;
  trace: RequestTrace;
  /** The tools of which the answer must call one (the request forces a call), or null. */
  forced: ReadonlySet<string> | null;
}

/** Where an attempt's effects land: its model, its provider and the key it used. */
export interface EffectTarget {
  model: ResolvedModel;
  provider: ResolvedProvider;
  apiKey: ProviderKey;
}

/** Applies every effect of one attempt, in the order the stores have always seen them. */
export function applyEffects(run: EffectRun, target: EffectTarget, effects: AttemptEffects): void {
  const { ctx, trace } = run;
  const { model, provider, apiKey } = target;
  const { key } = model;
  const { fingerprint } = apiKey;
  const { latency, usage, stats } = effects;
  if (latency !== null)
    ctx.latency.recordServed(key, latency.firstByteMs, latency.totalMs, latency.completionTokens);
  countAttemptEnd(ctx.quotas, { provider, model, fingerprint }, effects.budget);
  trace.finish(effects.view);
  if (usage !== null) {
    trace.usage = usage;
    ctx.quotas.usage.record(key, fingerprint, usage);
  }
  if (effects.failure !== null) trace.failures.push(effects.failure);
  if (effects.fault !== null)
    ctx.logger.error(
      `request ${trace.requestId}: local fault during the attempt on ${key}: ${faultTrace(effects.fault)}`,
    );
  applyBreaker(run, key, effects.breaker);
  if (effects.clearPauses) ctx.quotas.clearOnSuccess(key, provider.id, fingerprint, provider.quotaAccount);
  if (stats !== null) ctx.modelStats.record(key, stats.ok, stats.latencyMs);
  applyPause(ctx, target, effects.pause);
  if (effects.blockKey) {
    ctx.quotas.blockAuth(provider.id, fingerprint);
    trace.refusedKeys.add(keyId(provider.id, fingerprint));
  }
  applyFit(run, key, effects.fit);
}

function applyBreaker(run: EffectRun, key: string, effect: BreakerEffect | null): void {
  const { ctx } = run;
  if (effect === null) return;
  if (effect.type === 'success') ctx.breakers.recordSuccess(key, effect.sentToTrip);
  else if (effect.type === 'deferred') run.trace.deferredNetwork.push({ key, role: effect.role });
  else bookBreakerFailure(ctx, key, effect);
}

function applyPause(ctx: RouteContext, target: EffectTarget, pause: PauseEffect | null): void {
  if (pause === null) return;
  const { fingerprint } = target.apiKey;
  const { ms, authoritative } = pause;
  if (pause.scope === 'model') ctx.quotas.pauseModel(target.model.key, fingerprint, ms, authoritative);
  else ctx.quotas.pauseProvider(target.provider.quotaAccount, fingerprint, ms, pause.reason, authoritative);
}

/** What the attempt taught about the model's fit; a ceiling learnt also bounds the request's refusal. */
function applyFit(run: EffectRun, key: string, fit: FitEffect | null): void {
  const { fits } = run.ctx;
  if (fit === null) return;
  if (fit.type === 'served') {
    const asks = { ...run.req.needs, forcedCall: run.forced !== null };
    return fits.served(key, fit.size, asks, run.req.source === 'agent');
  }
  if (fit.type === 'feature') return fits.refusedFeature(key, fit.feature);
  fits.refusedSize(key, fit.size, fit.ceiling, fit.statedLimit);
  const learned = fits.get(key)?.ceiling?.tokens;
  const { trace } = run;
  if (learned !== undefined) trace.largestTooSmall = Math.max(trace.largestTooSmall ?? 0, learned);
}
