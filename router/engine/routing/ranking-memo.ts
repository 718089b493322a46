import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { Ranking } from './ranking.js';

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
