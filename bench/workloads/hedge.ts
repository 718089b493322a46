import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConfigInput } from '../../router/config/schema.js';
import { startRouter } from '../../router/daemon/start-router.js';
import { chatBody, openPool, timedRequest } from '../load-client.js';
import { median } from '../stats.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const HEDGE_SET = 'hedge';
const HEALTHY = 'bench-a/m1';

export interface HedgePlan {
  requests: number;
  requestTimeoutMs: number;
  hedgeAfterMs: number;
}

export interface HedgeSample {
  requestTimeoutMs: number;
  hedgeAfterMs: number;
  /** Median time to answer when the first model hangs, without hedging and with it. */
  withoutMs: number;
  withMs: number;
  /** Median time of the healthy model alone (pinned), for "hedge delay + the healthy model's time". */
  healthyMs: number;
  /** Upstream requests per answer (the attempts each decision header counts), without and with hedging. */
  upstreamWithout: number;
  upstreamWith: number;
  /** Requests that were not served by the healthy model. */
  errors: number;
}

/**
 * A set whose first model never answers (the fast upstream's `/hang/` path) and whose second serves at
 * once. The breaker threshold is the highest, so the hanging model keeps its turn in every request.
 */
function hedgeConfig(upstream: string, plan: HedgePlan, hedged: boolean): ConfigInput {
  return {
    providers: {
      'bench-hang': { baseUrl: `${upstream}/hang/v1`, models: ['m0'] },
      'bench-a': { baseUrl: `${upstream}/v1`, models: ['m1'] },
    },
    sets: { [HEDGE_SET]: ['bench-hang/m0', HEALTHY] },
    activeSet: HEDGE_SET,
    router: {
      failover: {
        requestTimeoutMs: plan.requestTimeoutMs,
        hedgeAfterMs: hedged ? plan.hedgeAfterMs : null,
      },
      breaker: { failureThreshold: 20 },
    },
  };
}

/** Sequential requests to `model` on an in-process router with `config`: times, attempts, failures. */
async function timeRouter(
  config: ConfigInput,
  model: string,
  requests: number,
): Promise<{ ms: number[]; attempts: number[]; errors: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-bench-hedge-'));
  try {
    await writeFile(path.join(dir, 'config.json'), JSON.stringify(config));
    const router = await startRouter({ port: 0, stateDir: dir, env: {}, logger: silent, discoveryTickMs: 0 });
    const pool = openPool(router.url, 1);
    try {
      const body = chatBody(model, false);
      const ms: number[] = [];
      const attempts: number[] = [];
      let errors = 0;
      for (let i = 0; i < requests; i += 1) {
        const reply = await timedRequest(pool, body);
        if (!reply.ok || reply.headers['x-fcm-v2-model'] !== HEALTHY) errors += 1;
        ms.push(reply.ms);
        attempts.push(Number(reply.headers['x-fcm-v2-attempts'] ?? Number.NaN));
      }
      return { ms, attempts, errors };
    } finally {
      await pool.close();
      await router.stop({ graceMs: 1000 });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * One model hangs, one is healthy: the time to answer without hedging (the request timeout, then the
 * failover) and with `hedgeAfterMs` (the delay, then the hedge), and the upstream requests each spends.
 */
export async function measureHedge(upstream: string, plan: HedgePlan): Promise<HedgeSample> {
  const plain = await timeRouter(hedgeConfig(upstream, plan, false), `fcm:${HEDGE_SET}`, plan.requests);
  const hedged = await timeRouter(hedgeConfig(upstream, plan, true), `fcm:${HEDGE_SET}`, plan.requests);
  const healthy = await timeRouter(hedgeConfig(upstream, plan, true), `fcm:@${HEALTHY}`, plan.requests);
  return {
    requestTimeoutMs: plan.requestTimeoutMs,
    hedgeAfterMs: plan.hedgeAfterMs,
    withoutMs: median(plain.ms),
    withMs: median(hedged.ms),
    healthyMs: median(healthy.ms),
    upstreamWithout: mean(plain.attempts),
    upstreamWith: mean(hedged.attempts),
    errors: plain.errors + hedged.errors + healthy.errors,
  };
}
