/**
 * `npm run bench:floor [-- --rounds N]`: how much of the router's cost over the bare relay is validation.
 * Three processes in the middle of the same fast upstream, 64 clients of non-stream requests, each for 2 s
 * in turn in an order that rotates every round: the bare relay (`bare-relay.ts`), the validating relay
 * (`validating-relay.ts`: parse, rename, serialise, parse and check the answer, nothing else) and the router
 * (the bench's daemon and config). Each round's req/s, CPU time and heap allocations per request; the table
 * shows medians over rounds, and each ratio is the median of the round's own ratios to the bare relay.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_SET, DIRECT_MODEL, benchConfig, catalogueEnv } from './bench-config.js';
import { chatBody, closedLoop, openPool, timedRequest } from './load-client.js';
import { CostSamples, HEAP_METER, withCost } from './process-cost.js';
import { startChild, type ChildHandle } from './proc.js';
import { median } from './stats.js';
import { turnOrder } from './workloads/interleaved.js';

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '..');
const CONCURRENCY = 64;
const RUN_MS = 2000;
const WARM_MS = 200;
const NAMES = ['bare relay', 'validating relay', 'router'] as const;
type Name = (typeof NAMES)[number];

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '8' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a whole number, got ${values.rounds}`);

/** One target's closed loop of requests for `RUN_MS`, after a warm-up; `sent` counts both. */
async function loop(origin: string, model: string): Promise<{ rate: number; sent: number }> {
  const pool = openPool(origin, CONCURRENCY);
  const body = chatBody(model, false);
  const once = async (): Promise<boolean> => (await timedRequest(pool, body)).ok;
  try {
    const warm = await closedLoop(CONCURRENCY, WARM_MS, once);
    const run = await closedLoop(CONCURRENCY, RUN_MS, once);
    if (run.failed > 0) throw new Error(`${origin}: ${run.failed} requests failed`);
    return { rate: (run.done * 1000) / run.ms, sent: warm.done + warm.failed + run.done };
  } finally {
    await pool.close();
  }
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-floor-'));
const children: ChildHandle[] = [];
try {
  const upstream = await startChild([path.join(HERE, 'fake-upstream-fast.ts')]);
  children.push(upstream);
  const metered = ['--import', HEAP_METER];
  const bare = await startChild([...metered, path.join(HERE, 'bare-relay.ts'), upstream.url]);
  children.push(bare);
  const validating = await startChild([
    ...metered,
    path.join(HERE, 'validating-relay.ts'),
    upstream.url,
    DIRECT_MODEL,
  ]);
  children.push(validating);
  await writeFile(path.join(dir, 'config.json'), JSON.stringify(benchConfig(upstream.url, 5000)));
  const daemonArgs = ['daemon', '--port', '0', '--state-dir', dir, '--config', path.join(dir, 'config.json')];
  const router = await startChild([...metered, path.join(ROOT, 'bin', 'fcm-router.js'), ...daemonArgs], {
    tsx: false,
    env: { PATH: process.env.PATH ?? '', HOME: dir, FCM_ROUTER_DISCOVERY_TICK_MS: '0', ...catalogueEnv() },
  });
  children.push(router);
  const targets: Record<Name, { child: ChildHandle; model: string }> = {
    'bare relay': { child: bare, model: DIRECT_MODEL },
    'validating relay': { child: validating, model: 'fcm' },
    router: { child: router, model: `fcm:${BENCH_SET}` },
  };
  const rates: Record<Name, number[]> = { 'bare relay': [], 'validating relay': [], router: [] };
  const costs = new CostSamples<Name>();
  for (let round = 0; round < rounds; round += 1) {
    for (const name of turnOrder(NAMES, round)) {
      const { child, model } = targets[name];
      const { result, cost } = await withCost(child, () => loop(child.url, model));
      rates[name].push(result.rate);
      costs.add(name, cost);
    }
    process.stderr.write(`round ${round + 1}/${rounds}\n`);
  }
  const rateRatio = (name: Name): number =>
    median(rates[name].map((rate, i) => rate / (rates['bare relay'][i] ?? Number.NaN)));
  console.log(`${rounds} rounds of ${RUN_MS / 1000} s per target, ${CONCURRENCY} clients, non-stream`);
  console.log('target            req/s   ratio   CPU µs/req  ratio   heap KB/req  ratio');
  for (const name of NAMES) {
    const cost = costs.median(name);
    const cells = [
      name.padEnd(16),
      median(rates[name]).toFixed(0).padStart(6),
      `${rateRatio(name).toFixed(2)}x`.padStart(7),
      cost.cpuUs.toFixed(1).padStart(11),
      `${costs.pairedRatio(name, 'bare relay', 'cpuUs').toFixed(2)}x`.padStart(7),
      cost.heapKb.toFixed(1).padStart(12),
      `${costs.pairedRatio(name, 'bare relay', 'heapKb').toFixed(2)}x`.padStart(7),
    ];
    console.log(cells.join(' '));
  }
} finally {
  await Promise.all(children.map((child) => child.stop()));
  await rm(dir, { recursive: true, force: true });
}
