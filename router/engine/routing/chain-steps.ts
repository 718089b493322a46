/**
 * The steps of a request's chain besides fitting: its set ranked (a healthy set's ranking remembered across
 * requests, `RankingMemo`), each candidate looked at again before its turn, and the last resort.
 */
import { candidateFacts } from './candidate-facts.js';
import { fastestOrder } from './fastest-order.js';
import { refusalsBehindIn } from './refusals-behind.js';
import { skipUnfit } from '../fit/fit-steps.js';
import { keysBlock } from '../booking/key-rotation.js';
import type { RequestRun } from './dispatch.js';
import { rankCandidates, type RankedCandidate, type Ranking } from './ranking.js';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { Role } from '../answer/request-trace.js';

/** What a ranking was computed from: the set, the config, and how far the stores had changed. */
export interface RankingInputs {
  /** The set's model list, by identity (each ResolvedConfig holds its own arrays). */
  set: readonly string[];
  resolved: ResolvedConfig;
  breakerVersion: number;
  quotaVersion: number;
}

interface Entry {
  resolved: ResolvedConfig;
  breakerVersion: number;
  quotaVersion: number;
  ranking: Ranking;
}

/**
 * The last ranking of each set, reused while it cannot have changed: same config, no breaker or quota
 * change since, and a ranking that did not depend on the time (`Ranking.timeless`). That is the steady
 * state of a healthy set, where every request would otherwise re-rank the same CLOSED models.
 */
export class RankingMemo {
  readonly #last = new WeakMap<readonly string[], Entry>();

  /** The remembered ranking for `inputs`, or `compute()`'s (remembered when it is timeless). */
  rank(inputs: RankingInputs, compute: () => Ranking): Ranking {
    const hit = this.#last.get(inputs.set);
    if (
      hit !== undefined &&
      hit.resolved === inputs.resolved &&
      hit.breakerVersion === inputs.breakerVersion &&
      hit.quotaVersion === inputs.quotaVersion
    ) {
      return hit.ranking;
    }
    const ranking = compute();
    if (ranking.timeless) {
      this.#last.set(inputs.set, {
        resolved: inputs.resolved,
        breakerVersion: inputs.breakerVersion,
        quotaVersion: inputs.quotaVersion,
        ranking,
      });
    } else {
      this.#last.delete(inputs.set);
    }
    return ranking;
  }
}

/**
 * Ranks a set for this request (a healthy set's ranking is reused until a store changes); a `fastest` set
 * then puts its healthy models in order of recent speed, and the models that lately refused a request
 * another model served go behind the others (for a request forcing a tool call, those that lately ignored
 * one too).
 */
export function rankSet(run: RequestRun, set: readonly string[], setName: string): Ranking {
  const { ctx, trace } = run;
  const { resolved, breakers, quotas } = ctx;
  const facts = (key: string): ReturnType<typeof candidateFacts> =>
    candidateFacts(key, resolved, breakers, quotas, trace.refusedKeys);
  const ranking = ctx.rankings.rank(
    { set, resolved, breakerVersion: breakers.version, quotaVersion: quotas.version },
    () => rankCandidates(set, facts, ctx.clock(), resolved.config.router.breaker),
  );
  trace.skips.push(...ranking.skips);
  const { order, exploration } = resolved.config.router.ranking;
  const ranked =
    order[setName] === 'fastest'
      ? fastestOrder(ranking.order, (key) => ctx.latency.get(key), ctx.random() < exploration)
      : ranking.order;
  const { order: final, behind } = refusalsBehindIn(ctx.fits, ranked, run.forced !== null);
  if (behind.length > 0) trace.behind = behind;
  return final === ranking.order ? ranking : { ...ranking, order: final };
}

/**
 * The last-resort model when it is due: nothing served, the client is still there, budget is left and it
 * was not tried already. Its breaker and quota state are ignored, but refused keys are not: when every key
 * of its provider was refused it would only refuse again (a skip).
 */
export function lastResortKey(run: RequestRun): string | null {
  const { ctx, trace, req, deadline } = run;
  const key = ctx.resolved.config.router.failover.lastResortModel;
  if (!key || req.clientGone.gone || trace.tried.has(key) || ctx.clock() >= deadline) return null;
  const model = ctx.resolved.models.get(key);
  const provider = ctx.resolved.providers.get(model?.provider ?? '');
  if (model === undefined || provider === undefined) return null;
  if (keysBlock(provider, model, ctx.quotas, trace.refusedKeys)?.reason === 'auth_error') {
    trace.skips.push({ model: key, reason: 'auth_error' });
    return null;
  }
  return skipUnfit(run, key) ? null : key;
}

/**
 * A ranked candidate looked at again just before its turn: state may have moved since ranking (a sibling's
 * key was refused, another request tripped its breaker). Its role now, or null when it is skipped.
 */
export function roleNow(run: RequestRun, candidate: RankedCandidate): Role | null {
  const { ctx, trace } = run;
  const now = candidateFacts(candidate.key, ctx.resolved, ctx.breakers, ctx.quotas, trace.refusedKeys);
  if (now.blocked) {
    trace.skips.push({ model: candidate.key, reason: now.blocked });
    return null;
  }
  if (now.breaker.state === 'OPEN') {
    trace.skips.push({ model: candidate.key, reason: 'circuit_open' });
    return null;
  }
  return now.breaker.state === 'HALF_OPEN' ? 'trial' : candidate.role;
}
