/**
 * `npm run bench:floor [-- --rounds N]`: the router beside proxies that do only part of its job, to tell how
 * much of its cost over the bare relay that part takes. Processes in the middle of the same fast upstream,
 * 64 clients each for 2 s in turn, in an order that rotates every round; each round's rate, CPU time and
 * heap allocations per request, the table showing medians over rounds and each ratio the median of the
 * rounds' own ratios to the section's first row.
 *
 * - Non-stream requests: the bare relay (`bare-relay.ts`), the validating relay (`validating-relay.ts`:
 *   parse, rename, serialise, parse and check the answer, nothing else) and the router (the bench's daemon
 *   and config).
 * - Streams of 200 chunks: chat completions through the bare relay, Anthropic Messages through the
 *   translating relay (`translating-relay.ts`: each frame parsed once and written as an event, nothing else),
 *   and the router's chat completions, Messages and Responses faces: what translating costs a proxy that
 *   does only that, beside what it costs the router over its own chat completions (the bench's stream bar).
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
import { faceStream, timedFaceStream, type FaceName } from './workloads/faces.js';
import { turnOrder } from './workloads/interleaved.js';
import { rateOfStreams } from './workloads/throughput.js';

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '..');
const CONCURRENCY = 64;
const RUN_MS = 2000;
const WARM_MS = 200;

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '8' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a whole number, got ${values.rounds}`);

/** A rate per second and the requests (or streams) sent for it, a warm-up's among them. */
interface Run {
  rate: number;
  sent: number;
}

/** One row of a section: the process it measures and one closed loop of its workload. */
interface Target {
  name: string;
  child: ChildHandle;
  run: () => Promise<Run>;
}

/** A closed loop of `once` for `RUN_MS` after a warm-up, on a pool of its own; any failure fails the bench. */
async function loop(origin: string, once: (pool: ReturnType<typeof openPool>) => Promise<boolean>) {
  const pool = openPool(origin, CONCURRENCY);
  try {
    const warm = await closedLoop(CONCURRENCY, WARM_MS, () => once(pool));
    const run = await closedLoop(CONCURRENCY, RUN_MS, () => once(pool));
    if (run.failed > 0) throw new Error(`${origin}: ${run.failed} requests failed`);
    return { warm, run };
  } finally {
    await pool.close();
  }
}

/** Non-stream requests per second naming `model`. */
function requests(child: ChildHandle, model: string): () => Promise<Run> {
  const body = chatBody(model, false);
  return async () => {
    const { warm, run } = await loop(child.url, async (pool) => (await timedRequest(pool, body)).ok);
    return { rate: (run.done * 1000) / run.ms, sent: warm.done + warm.failed + run.done };
  };
}

/** Upstream chunks per second delivered as `face`'s stream, naming `model`. */
function streams(child: ChildHandle, face: FaceName, model: string): () => Promise<Run> {
  const stream = faceStream(face, model);
  return async () => {
    const { warm, run } = await loop(child.url, async (pool) => (await timedFaceStream(pool, stream)).ok);
    return rateOfStreams(run, warm);
  };
}

/**
 * Runs a section's targets in rotating order for every round and prints its table; what it returns tells
 * one row against another (the medians of their rounds' ratios).
 */
async function section(
  title: string,
  unit: string,
  targets: readonly Target[],
): Promise<(name: string, other: string) => string> {
  const rates = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  const costs = new CostSamples<string>();
  for (let round = 0; round < rounds; round += 1) {
    for (const target of turnOrder(targets, round)) {
      const { result, cost } = await withCost(target.child, target.run);
      rates.get(target.name)?.push(result.rate);
      costs.add(target.name, cost);
    }
    process.stderr.write(`${title}: round ${round + 1}/${rounds}\n`);
  }
  const rateOf = (name: string): number[] => rates.get(name) ?? [];
  const ratio = (name: string, base: string): number =>
    median(rateOf(name).map((rate, i) => rate / (rateOf(base)[i] ?? Number.NaN)));
  const base = targets[0]?.name ?? '';
  console.log(`\n${title}: ${rounds} rounds of ${RUN_MS / 1000} s per row, ${CONCURRENCY} clients`);
  console.log(`${'target'.padEnd(28)} ${unit.padStart(8)}   ratio   CPU µs/req  ratio   heap KB/req  ratio`);
  for (const { name } of targets) {
    const cost = costs.median(name);
    const cells = [
      name.padEnd(28),
      median(rateOf(name)).toFixed(0).padStart(8),
      `${ratio(name, base).toFixed(2)}x`.padStart(7),
      cost.cpuUs.toFixed(1).padStart(12),
      `${costs.pairedRatio(name, base, 'cpuUs').toFixed(2)}x`.padStart(7),
      cost.heapKb.toFixed(1).padStart(12),
      `${costs.pairedRatio(name, base, 'heapKb').toFixed(2)}x`.padStart(7),
    ];
    console.log(cells.join(' '));
  }
  return (name, other) =>
    `${name} over ${other}: ${ratio(name, other).toFixed(2)}x the ${unit}, ` +
    `${costs.pairedRatio(name, other, 'cpuUs').toFixed(2)}x the CPU per request`;
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-floor-'));
const children: ChildHandle[] = [];
try {
  const upstream = await startChild([path.join(HERE, 'fake-upstream-fast.ts')]);
  children.push(upstream);
  const metered = ['--import', HEAP_METER];
  const relay = async (file: string, ...args: string[]): Promise<ChildHandle> => {
    const child = await startChild([...metered, path.join(HERE, file), upstream.url, ...args]);
    children.push(child);
    return child;
  };
  const bare = await relay('bare-relay.ts');
  const validating = await relay('validating-relay.ts', DIRECT_MODEL);
  const translating = await relay('translating-relay.ts', DIRECT_MODEL);
  await writeFile(path.join(dir, 'config.json'), JSON.stringify(benchConfig(upstream.url, 5000)));
  const daemonArgs = ['daemon', '--port', '0', '--state-dir', dir, '--config', path.join(dir, 'config.json')];
  const router = await startChild([...metered, path.join(ROOT, 'bin', 'fcm-router.js'), ...daemonArgs], {
    tsx: false,
    env: { PATH: process.env.PATH ?? '', HOME: dir, FCM_ROUTER_DISCOVERY_TICK_MS: '0', ...catalogueEnv() },
  });
  children.push(router);
  const set = `fcm:${BENCH_SET}`;
  await section('non-stream', 'req/s', [
    { name: 'bare relay', child: bare, run: requests(bare, DIRECT_MODEL) },
    { name: 'validating relay', child: validating, run: requests(validating, 'fcm') },
    { name: 'router', child: router, run: requests(router, set) },
  ]);
  const against = await section('streams', 'chunks/s', [
    { name: 'bare relay, chat', child: bare, run: streams(bare, 'chat', DIRECT_MODEL) },
    { name: 'translating relay, Messages', child: translating, run: streams(translating, 'messages', 'fcm') },
    { name: 'router, chat', child: router, run: streams(router, 'chat', set) },
    { name: 'router, Messages', child: router, run: streams(router, 'messages', set) },
    { name: 'router, Responses', child: router, run: streams(router, 'responses', set) },
  ]);
  console.log(against('translating relay, Messages', 'bare relay, chat'));
  console.log(against('router, Messages', 'router, chat'));
  console.log(against('router, Responses', 'router, chat'));
} finally {
  await Promise.all(children.map((child) => child.stop()));
  await rm(dir, { recursive: true, force: true });
}
