import type { TargetName } from '../load-client.js';
import { CHAT_PATH, chatBody, openPool, timedRequest } from '../load-client.js';
import { quantile } from '../stats.js';
import { turnOrder } from './interleaved.js';

/** One burst's request latencies in ms, from the client's side (connect and every queue included). */
export interface BurstRun {
  samples: number[];
  errors: number;
}

/**
 * `clients` clients, each on its own connection, all starting at the same moment and sending
 * `requests / clients` non-stream requests one after another. The connections are opened by the burst itself
 * (a fresh pool, closed at the end), so its first wave is `clients` TCP handshakes at once: the listen
 * backlog, the accept loop and whatever the server opens behind it are part of what is measured.
 */
export async function burst(
  origin: string,
  model: string,
  clients: number,
  requests: number,
  path = CHAT_PATH,
): Promise<BurstRun> {
  const pool = openPool(origin, clients);
  const body = chatBody(model, false);
  const perClient = Math.max(1, Math.round(requests / clients));
  const samples: number[] = [];
  let errors = 0;
  const client = async (): Promise<void> => {
    for (let i = 0; i < perClient; i += 1) {
      const reply = await timedRequest(pool, body, {}, path);
      if (!reply.ok) errors += 1;
      samples.push(reply.ms);
    }
  };
  try {
    await Promise.all(Array.from({ length: clients }, client));
  } finally {
    await pool.close();
  }
  return { samples, errors };
}

export interface BurstTarget {
  name: TargetName;
  origin: string;
  model: string;
  /** The request path; the agents' chat-completions path unless said. */
  path?: string;
}

/** A target's bursts pooled over every round: p99 and worst request in ms, and failed requests. */
export interface BurstFigures {
  p99: number;
  max: number;
  errors: number;
}

/**
 * `rounds` bursts per target, the targets taking turns in the rotating order of the other interleaved
 * workloads, so a slow spell of the shared machine falls on each of them alike. Samples are pooled over the
 * rounds before the quantiles are taken.
 */
export async function measureBursts(
  targets: readonly BurstTarget[],
  clients: number,
  requests: number,
  rounds: number,
): Promise<Record<TargetName, BurstFigures>> {
  const runs = new Map<TargetName, BurstRun>(
    targets.map((target) => [target.name, { samples: [], errors: 0 }]),
  );
  for (let round = 0; round < rounds; round += 1) {
    for (const target of turnOrder(targets, round)) {
      const run = await burst(target.origin, target.model, clients, requests, target.path);
      const pooled = runs.get(target.name) as BurstRun;
      for (const ms of run.samples) pooled.samples.push(ms);
      pooled.errors += run.errors;
      // The closed connections' teardown is left out of the next target's burst.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  const out = {} as Record<TargetName, BurstFigures>;
  for (const [name, run] of runs) {
    out[name] = {
      p99: quantile(run.samples, 0.99),
      max: run.samples.reduce((worst, ms) => Math.max(worst, ms), 0),
      errors: run.errors,
    };
  }
  return out;
}
