/**
 * `npm run bench [-- --quick] [-- --cpu-prof] [-- --publish]`: the fast fake upstream, the bare relay and the
 * real daemon on loopback, measured side by side in interleaved rounds (the targets take turns in a rotating
 * order), medians over rounds, one row per bar of the issue with PASS or MISS, and the figures in
 * bench/out/results.json (ignored). `--publish` (`npm run bench:publish`) also refreshes the committed
 * bench/results.json. Always exits 0: it is a report; MISS rows are marked `>>`.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateBars, type Measured, type Pair } from './bars.js';
import {
  BENCH_SET,
  benchConfig,
  catalogueEnv,
  DIRECT_MODEL,
  SLOW_PATH,
  SLOW_SET,
  SLOW_UPSTREAM_MS,
} from './bench-config.js';
import { openPool, type Target, type TargetName } from './load-client.js';
import { CostSamples, HEAP_METER, withCost } from './process-cost.js';
import { cpuMs, startChild, type ChildHandle } from './proc.js';
import { markdownTable, machine, textTable, writeResults } from './report.js';
import { median, quantile } from './stats.js';
import { measureFlush, measureFlushP99 } from './workloads/breaker-flush.js';
import { measureBursts } from './workloads/burst.js';
import { measureFailover } from './workloads/failover.js';
import { measureFaceEncoding } from './workloads/face-encoding.js';
import { measureHedge } from './workloads/hedge.js';
import {
  FACE_NAMES,
  measureFaceStreamsInterleaved,
  measureFaceStreamThroughput,
  type FaceName,
} from './workloads/faces.js';
import { IDLE_SETTLE_MS, idleRss, idleStart } from './workloads/idle.js';
import { measureLatencyInterleaved, measureStreamInterleaved } from './workloads/interleaved.js';
import { measureLatency } from './workloads/latency.js';
import { holdOpenStreams } from './workloads/open-streams.js';
import { measureRanking } from './workloads/ranking.js';
import { sequentialRequests } from './workloads/sequential.js';
import { measureStreamThroughput, measureThroughput } from './workloads/throughput.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const cpuProf = args.includes('--cpu-prof');
const publish = args.includes('--publish');
/** Every run's figures; ignored by git, so a run leaves the checkout as it was. */
const OUT_FILE = path.join(HERE, 'out', 'results.json');
/** The committed figures, rewritten only on request. */
const PUBLISHED_FILE = path.join(HERE, 'results.json');
if (publish && quick) {
  console.error('bench: --publish takes the figures of a full run; drop --quick');
  process.exit(2);
}

const PLAN = quick
  ? {
      rounds: 3,
      latencyN: 200,
      rateMs: 500,
      streamN: 10,
      faceStreamN: 20,
      failoverPairs: 150,
      openCount: 500,
      holdMs: 5000,
      sequential: 10_000,
      rankings: 20_000,
      faceEncodings: 500,
      flushes: 10,
      flushRequests: 1500,
      hedge: { requests: 4, requestTimeoutMs: 1000, hedgeAfterMs: 200 },
    }
  : {
      rounds: 11,
      latencyN: 1000,
      rateMs: 2000,
      streamN: 200,
      faceStreamN: 60,
      failoverPairs: 1000,
      openCount: 500,
      holdMs: 30_000,
      sequential: 100_000,
      rankings: 100_000,
      faceEncodings: 3000,
      flushes: 30,
      flushRequests: 10_000,
      hedge: { requests: 8, requestTimeoutMs: 5000, hedgeAfterMs: 500 },
    };
const CONCURRENCY = 64;
/** The burst: quick mode sends fewer requests, at the same concurrency. */
const BURST = { clients: 2000, requests: quick ? 4000 : 20_000, rounds: quick ? 2 : 3 };
/** The same burst against a provider that takes `SLOW_UPSTREAM_MS` per answer: fewer requests each. */
const SLOW_BURST = {
  clients: 2000,
  requests: quick ? 2000 : 6000,
  rounds: quick ? 2 : 3,
  upstreamMs: SLOW_UPSTREAM_MS,
};
const ORDER: TargetName[] = ['direct', 'relay', 'router'];

const t0 = Date.now();
const log = (line: string): void =>
  console.error(`[bench ${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}`);

async function main(): Promise<void> {
  const started = Date.now();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-bench-'));
  const children: ChildHandle[] = [];
  const notes: string[] = [];
  if (quick)
    notes.push(
      `quick mode: ${PLAN.rounds} rounds, ${PLAN.openCount} streams held ${PLAN.holdMs / 1000} s, ${PLAN.sequential / 1000} k sequential requests (full: 100 k)`,
    );
  try {
    const upstream = await startChild([path.join(HERE, 'fake-upstream-fast.ts')]);
    children.push(upstream);
    const relay = await startChild([path.join(HERE, 'bare-relay.ts'), upstream.url]);
    children.push(relay);
    await writeFile(
      path.join(dir, 'config.json'),
      JSON.stringify(benchConfig(upstream.url, PLAN.holdMs), null, 2),
    );
    const profDir = path.join(dir, 'cpu-prof');
    const daemon = await startChild(
      [
        ...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
        // The daemon counts its heap allocations, for the faces' cost per stream (`heap-meter.mjs`).
        '--import',
        HEAP_METER,
        path.join(ROOT, 'bin', 'fcm-router.js'),
        'daemon',
        '--port',
        '0',
        '--state-dir',
        dir,
        '--config',
        path.join(dir, 'config.json'),
      ],
      // No daily model discovery: the catalogue's placeholder keys must never reach a real provider.
      {
        tsx: false,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          FCM_ROUTER_DISCOVERY_TICK_MS: '0',
          ...catalogueEnv(),
        },
      },
    );
    children.push(daemon);
    log(`upstream ${upstream.url}, relay ${relay.url}, router ${daemon.url} (pid ${daemon.pid})`);

    const targets: Record<TargetName, Target> = {
      direct: { name: 'direct', pool: openPool(upstream.url, CONCURRENCY), model: DIRECT_MODEL },
      relay: { name: 'relay', pool: openPool(relay.url, CONCURRENCY), model: DIRECT_MODEL },
      router: { name: 'router', pool: openPool(daemon.url, CONCURRENCY), model: `fcm:${BENCH_SET}` },
    };

    // The idle spells start now; the in-process measures run during them, while the machine is quiet.
    log(`idle RSS: a few requests, then ${IDLE_SETTLE_MS / 1000} s without any`);
    const routerIdleSince = await idleStart(targets.router.pool, targets.router.model);
    const relayIdleSince = await idleStart(targets.relay.pool, targets.relay.model);
    log('ranking');
    const ranking = await measureRanking(PLAN.rankings);
    log('a stream through the gate and each face, in process');
    const faceEncoding = measureFaceEncoding(PLAN.faceEncodings);
    log('breaker store flush');
    const flush = await measureFlush(10_000, PLAN.flushes);
    const idleRouter = await idleRss(daemon.pid, routerIdleSince, IDLE_SETTLE_MS);
    const idleRelay = await idleRss(relay.pid, relayIdleSince, IDLE_SETTLE_MS);
    if (idleRouter.childrenMb > 0) {
      notes.push(
        `idle router RSS excludes its child processes (tsx's esbuild service: ${idleRouter.childrenMb.toFixed(1)} MB)`,
      );
    }
    notes.push(
      idleRouter.childrenMb > 0
        ? 'the daemon ran its TypeScript sources through tsx (about 30 MB of RSS); build dist/ for the shipped figure'
        : 'the daemon ran compiled JavaScript from dist/; the relay runs through tsx (about 30 MB of its RSS)',
    );

    // Single-client workloads interleave the targets request by request, so their samples are pooled over
    // all rounds: whatever slowed the machine slowed the three alike, and a p99 gets 1% of every sample
    // rather than ten samples per round.
    const latency: Record<TargetName, number[]> = { direct: [], relay: [], router: [] };
    const rate: Record<TargetName, number[]> = { direct: [], relay: [], router: [] };
    const ttfb: Record<TargetName, number[]> = { direct: [], relay: [], router: [] };
    const total: Record<TargetName, number[]> = { direct: [], relay: [], router: [] };
    const streamRate: Record<TargetName, number[]> = { direct: [], relay: [], router: [] };
    const errors: Record<TargetName, number> = { direct: 0, relay: 0, router: 0 };
    // CPU time per request of the process in the middle (the upstream itself for direct).
    const cpu: Record<TargetName, number[]> = { direct: [], relay: [], router: [] };
    const pids: Record<TargetName, number> = { direct: upstream.pid, relay: relay.pid, router: daemon.pid };
    // The router's faces on the same stream: single-client samples pooled like the above, chunks/s per round.
    const faceTtfb: Record<FaceName, number[]> = { chat: [], messages: [], responses: [] };
    const faceTotal: Record<FaceName, number[]> = { chat: [], messages: [], responses: [] };
    const faceRate = { messages: [] as number[], responses: [] as number[] };
    // CPU time and heap allocations per stream of the router on each face at 64 clients.
    const faceCost = new CostSamples<FaceName>();
    /** Runs a stream workload on the router and books what each of its streams cost it, under `face`. */
    const routerCost = async <T extends { sent: number }>(
      child: ChildHandle,
      face: FaceName,
      run: () => Promise<T>,
    ): Promise<T> => {
      const { result, cost } = await withCost(child, run);
      faceCost.add(face, cost);
      return result;
    };
    let faceErrors = 0;
    for (let round = 1; round <= PLAN.rounds; round += 1) {
      log(`round ${round}/${PLAN.rounds}`);
      const latencies = await measureLatencyInterleaved(
        ORDER.map((name) => targets[name]),
        PLAN.latencyN,
      );
      for (const name of ORDER) {
        latency[name].push(...latencies[name].samples);
        errors[name] += latencies[name].errors;
      }
      for (const name of ORDER) {
        const before = cpuMs(pids[name]);
        const sample = await measureThroughput(targets[name], CONCURRENCY, PLAN.rateMs);
        cpu[name].push(((cpuMs(pids[name]) - before) * 1000) / sample.requests);
        rate[name].push(sample.rate);
        errors[name] += sample.errors;
      }
      const streams = await measureStreamInterleaved(
        ORDER.map((name) => targets[name]),
        PLAN.streamN,
      );
      for (const name of ORDER) {
        ttfb[name].push(...streams[name].ttfbs);
        total[name].push(...streams[name].totals);
        errors[name] += streams[name].errors;
      }
      for (const name of ORDER) {
        const measure = () => measureStreamThroughput(targets[name], CONCURRENCY, PLAN.rateMs);
        // The router's chat-completions run is the faces' reference: its cost is taken too.
        const sample = name === 'router' ? await routerCost(daemon, 'chat', measure) : await measure();
        streamRate[name].push(sample.rate);
        errors[name] += sample.errors;
      }
      const router = targets.router;
      const faceStreams = await measureFaceStreamsInterleaved(router.pool, router.model, PLAN.faceStreamN);
      for (const face of FACE_NAMES) {
        faceTtfb[face].push(...faceStreams[face].ttfbs);
        faceTotal[face].push(...faceStreams[face].totals);
        faceErrors += faceStreams[face].errors;
      }
      // Right after the router's chat-completions chunks/s of this round, which they are compared with.
      for (const face of ['messages', 'responses'] as const) {
        const sample = await routerCost(daemon, face, () =>
          measureFaceStreamThroughput(router.pool, router.model, face, CONCURRENCY, PLAN.rateMs),
        );
        faceRate[face].push(sample.rate);
        faceErrors += sample.errors;
      }
    }
    const pooledOf = (samples: number[]): Pair => ({
      p50: quantile(samples, 0.5),
      p99: quantile(samples, 0.99),
    });
    const pooled: Record<TargetName, Pair> = {
      direct: pooledOf(latency.direct),
      relay: pooledOf(latency.relay),
      router: pooledOf(latency.router),
    };
    const added = (name: TargetName): Pair => ({
      p50: pooled[name].p50 - pooled.direct.p50,
      p99: pooled[name].p99 - pooled.direct.p99,
    });
    const streamPooled = (name: TargetName) => ({ ttfb: median(ttfb[name]), total: median(total[name]) });
    /** Median over rounds of each round's router-over-relay ratio of `value`. */
    const pairedRatio = (samples: Record<TargetName, number[]>): number =>
      median(samples.router.map((sample, i) => sample / (samples.relay[i] ?? Number.NaN)));
    /** Median over rounds of each round's face-over-chat-completions ratio of chunks/s. */
    const pairedFaceRate = (face: 'messages' | 'responses'): number =>
      median(faceRate[face].map((sample, i) => sample / (streamRate.router[i] ?? Number.NaN)));
    const paired: Measured['paired'] = {
      throughput: pairedRatio(rate),
      cpuPerRequest: pairedRatio(cpu),
      streamRate: pairedRatio(streamRate),
    };

    log('failover');
    const failover = await measureFailover(targets.router.pool, PLAN.failoverPairs);
    const directForFailover = await measureLatency(targets.direct, PLAN.failoverPairs);
    errors.router += failover.errors;

    log(`${PLAN.openCount} open streams for ${PLAN.holdMs / 1000} s (router, then relay)`);
    const openRouter = await holdOpenStreams(daemon.url, 'router', PLAN.openCount, PLAN.holdMs, daemon.pid);
    const openRelay = await holdOpenStreams(relay.url, 'relay', PLAN.openCount, PLAN.holdMs, relay.pid);
    if (openRouter.failedOver > 0)
      notes.push(
        `open streams: ${openRouter.failedOver} of ${PLAN.openCount} were served only after a failover (p99 TTFB ${openRouter.ttfbP99.toFixed(0)} ms)`,
      );

    log(`${PLAN.sequential} sequential requests`);
    const sequential = await sequentialRequests(
      targets.router.pool,
      targets.router.model,
      PLAN.sequential,
      daemon.pid,
    );
    errors.router += sequential.errors;

    log('breaker store: request p99 while flushing');
    const flushP99 = await measureFlushP99(upstream.url, 10_000, PLAN.flushRequests);

    log(
      `hedging: one model hangs (requestTimeoutMs ${PLAN.hedge.requestTimeoutMs}, hedgeAfterMs ${PLAN.hedge.hedgeAfterMs})`,
    );
    const hedge = await measureHedge(upstream.url, PLAN.hedge);
    if (hedge.errors > 0) notes.push(`hedging: ${hedge.errors} requests not served by the healthy model`);
    // Last: the burst leaves the daemon with about 2 000 upstream sockets and a grown heap.
    log(`burst: ${BURST.clients} clients, ${BURST.requests} requests, ${BURST.rounds} rounds`);
    const burst = await measureBursts(
      [
        { name: 'direct', origin: upstream.url, model: DIRECT_MODEL },
        { name: 'relay', origin: relay.url, model: DIRECT_MODEL },
        { name: 'router', origin: daemon.url, model: `fcm:${BENCH_SET}` },
      ],
      BURST.clients,
      BURST.requests,
      BURST.rounds,
    );
    for (const name of ORDER)
      if (burst[name].errors > 0) notes.push(`burst: ${burst[name].errors} failed requests through ${name}`);
    log(
      `burst against a provider taking ${SLOW_UPSTREAM_MS} ms: ${SLOW_BURST.requests} requests, ${SLOW_BURST.rounds} rounds`,
    );
    const slowBurst = await measureBursts(
      [
        { name: 'direct', origin: upstream.url, model: DIRECT_MODEL, path: SLOW_PATH },
        { name: 'relay', origin: relay.url, model: DIRECT_MODEL, path: SLOW_PATH },
        { name: 'router', origin: daemon.url, model: `fcm:${SLOW_SET}` },
      ],
      SLOW_BURST.clients,
      SLOW_BURST.requests,
      SLOW_BURST.rounds,
    );
    for (const name of ORDER)
      if (slowBurst[name].errors > 0)
        notes.push(`slow burst: ${slowBurst[name].errors} failed requests through ${name}`);

    await Promise.all(Object.values(targets).map((target) => target.pool.close()));
    const measured: Measured = {
      latency: {
        direct: pooled.direct,
        relay: pooled.relay,
        router: pooled.router,
        relayAdded: added('relay'),
        routerAdded: added('router'),
      },
      throughput: { direct: median(rate.direct), relay: median(rate.relay), router: median(rate.router) },
      stream: {
        direct: streamPooled('direct'),
        relay: streamPooled('relay'),
        router: streamPooled('router'),
      },
      streamRate: {
        direct: median(streamRate.direct),
        relay: median(streamRate.relay),
        router: median(streamRate.router),
      },
      failover: {
        routerP50: failover.failoverP50,
        servedFirstP50: failover.servedFirstP50,
        directP50: directForFailover.p50,
      },
      openStreams: {
        count: PLAN.openCount,
        holdMs: PLAN.holdMs,
        routerErrors: openRouter.errors,
        routerPeakRssMb: openRouter.peakRssMb,
        routerTtfbP99: openRouter.ttfbP99,
        relayErrors: openRelay.errors,
        relayTtfbP99: openRelay.ttfbP99,
        relayPeakRssMb: openRelay.peakRssMb,
      },
      sequential,
      ranking,
      flush: { ...flush, p99Without: flushP99.p99Without, p99With: flushP99.p99With },
      idle: { routerMb: idleRouter.rssMb, relayMb: idleRelay.rssMb, settleMs: IDLE_SETTLE_MS },
      faces: {
        stream: {
          chat: { ttfb: median(faceTtfb.chat), total: median(faceTotal.chat) },
          messages: { ttfb: median(faceTtfb.messages), total: median(faceTotal.messages) },
          responses: { ttfb: median(faceTtfb.responses), total: median(faceTotal.responses) },
        },
        streamRate: { messages: median(faceRate.messages), responses: median(faceRate.responses) },
        pairedStreamRate: { messages: pairedFaceRate('messages'), responses: pairedFaceRate('responses') },
        cost: {
          chat: faceCost.median('chat'),
          messages: faceCost.median('messages'),
          responses: faceCost.median('responses'),
        },
        encoding: faceEncoding,
      },
      cpuPerRequestUs: { direct: median(cpu.direct), relay: median(cpu.relay), router: median(cpu.router) },
      paired,
      hedge,
      burst: { ...BURST, ...burst },
      slowBurst: { ...SLOW_BURST, ...slowBurst },
    };
    if (faceErrors > 0) notes.push(`faces: ${faceErrors} failed streams during the face workloads`);
    for (const name of ORDER)
      if (errors[name] > 0)
        notes.push(`${name}: ${errors[name]} failed requests during the rate and latency workloads`);
    const rows = evaluateBars(measured);
    const m = machine();
    console.log(
      `\nfcm-router benchmark (${quick ? 'quick' : 'full'}), ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}`,
    );
    console.log(
      `${PLAN.rounds} interleaved rounds: single-client figures over every request of every round, the others medians over rounds (router/relay: the median of each round's ratio)\n`,
    );
    console.log(textTable(rows));
    for (const note of notes) console.log(`note: ${note}`);
    const missed = rows.filter((row) => !row.pass).length;
    console.log(
      `\n${rows.length - missed} PASS, ${missed} MISS; ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    if (args.includes('--markdown')) console.log(`\n${markdownTable(rows)}`);
    await mkdir(path.dirname(OUT_FILE), { recursive: true });
    for (const file of publish ? [OUT_FILE, PUBLISHED_FILE] : [OUT_FILE]) {
      await writeResults(file, quick ? 'quick' : 'full', rows, measured, notes);
      console.log(`wrote ${path.relative(ROOT, file)}`);
    }
    if (cpuProf) {
      await daemon.stop();
      const kept = path.join(await mkdtemp(path.join(os.tmpdir(), 'fcm-bench-prof-')), 'cpu-prof');
      await rename(profDir, kept);
      console.log(`daemon CPU profiles: ${kept} (open the .cpuprofile in Chrome DevTools or speedscope)`);
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
