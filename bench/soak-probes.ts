/**
 * Health probes in the chaos soak: what a probe meets upstream, and the invariants that must hold with probes
 * on. A probe carries no `soak-<index>` id, so its behaviour is a pure function of (seed, its request id, the
 * model): the chaos upstream and the checker agree on it without sharing state. Pure.
 */
import type { HistoryEntry } from '../router/api-types.js';
import { cellRandom, pickWeighted } from './prng.js';
import {
  FAIL_WEIGHTS,
  GOOD_WEIGHTS,
  isGood,
  judgeTrace,
  type Behaviour,
  type RequestPlan,
  type SoakModel,
} from './soak-scenarios.js';

/** The router names its probes `probe-<uuid>`; agents' requests in the soak are `soak-<index>`. */
export const PROBE_ID = /^probe-[0-9a-f-]{36}$/;

/** Keeps probes' draws apart from the agents' rows of the same seed. */
const PROBE_SALT = 0x70726f62;

/** FNV-1a: a 32-bit row number for a request id. */
function rowOf(requestId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < requestId.length; i += 1) {
    hash ^= requestId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The plan of one probe of `key`: every model's behaviour for it (the dead key's is its 401), drawn with
 * the same weights as an agent's request; non-stream, as probes are; doomed when the probed model fails.
 */
export function probePlan(
  seed: number,
  requestId: string,
  models: readonly SoakModel[],
  key: string,
): RequestPlan {
  const row = rowOf(requestId);
  const behaviours = models.map((model, column): Behaviour =>
    model.deadKey
      ? 's401'
      : pickWeighted<Behaviour>(cellRandom(seed ^ PROBE_SALT, row, column), {
          ...GOOD_WEIGHTS,
          ...FAIL_WEIGHTS,
        }),
  );
  const column = models.findIndex((model) => model.key === key);
  const probed = behaviours[column];
  return { index: -1, stream: false, doomed: probed === undefined || !isGood(probed), behaviours };
}

/** Request totals of the day counters (`counters.json`, every day summed). */
export interface CounterTotals {
  /** Every counted request. */
  requests: number;
  served: number;
}

export interface ProbeReport {
  /** Probes the router ran (their history entries). */
  run: number;
  /** Probes whose model answered. */
  served: number;
  /** Probes that were their model's HALF_OPEN trial. */
  trials: number;
  violations: { requestId: string; problem: string }[];
}

/**
 * Checks every history entry of a soak for what probes must respect: probes (and only they) have
 * `source: "probe"` and are pinned to the model they probe; each probe's trace is fair for what its model did
 * (`judgeTrace` against {@link probePlan}); and the day counters count the agents' requests alone.
 */
export function judgeProbes(
  entries: Iterable<HistoryEntry>,
  seed: number,
  models: readonly SoakModel[],
  limits: { maxAttempts: number; totalBudgetMs: number },
  counters: CounterTotals | null,
): ProbeReport {
  const report: ProbeReport = { run: 0, served: 0, trials: 0, violations: [] };
  const agents = { requests: 0, served: 0 };
  for (const entry of entries) {
    const flag = (problem: string): void =>
      void report.violations.push({ requestId: entry.requestId, problem });
    const probe = PROBE_ID.test(entry.requestId);
    if (!probe) {
      if (entry.source !== 'agent') flag(`an agent's request has source ${entry.source}`);
      agents.requests += 1;
      if (entry.outcome === 'served') agents.served += 1;
      continue;
    }
    report.run += 1;
    if (entry.outcome === 'served') report.served += 1;
    if (entry.attempts[0]?.role === 'trial') report.trials += 1;
    if (entry.source !== 'probe') flag(`a probe has source ${entry.source}`);
    if (entry.pinned === null) {
      flag('a probe that is not pinned to its model');
      continue;
    }
    const verdict = judgeTrace(probePlan(seed, entry.requestId, models, entry.pinned), models, entry, limits);
    if (!verdict.ok) flag(verdict.problem);
  }
  if (counters === null) report.violations.push({ requestId: '-', problem: 'no day counters' });
  else if (counters.requests !== agents.requests || counters.served !== agents.served)
    report.violations.push({
      requestId: '-',
      problem: `day counters count ${counters.requests} requests (${counters.served} served), the agents sent ${agents.requests} (${agents.served} served)`,
    });
  return report;
}
