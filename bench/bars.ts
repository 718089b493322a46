import type { RequestCost } from './process-cost.js';
import { theilSenFit } from './stats.js';
import type { FaceName } from './workloads/faces.js';
import type { HedgeSample } from './workloads/hedge.js';
import type { BurstFigures } from './workloads/burst.js';

/**
 * The performance bars as data: from the measured medians to one row per figure, with the relay's
 * and the direct call's beside the router's, the ratio the bar compares, and PASS or MISS. Pure.
 */

export interface Row {
  workload: string;
  metric: string;
  direct: number | null;
  relay: number | null;
  router: number;
  /** Router over relay (or over `against`); null when there is none. */
  ratio: number | null;
  /** What `ratio` divides by when it is not the relay. */
  against?: 'direct';
  bar: string;
  pass: boolean;
}

export interface Pair {
  p50: number;
  p99: number;
}

export interface Measured {
  /**
   * Each target's p50/p99 over every request of every round (the targets take turns request by request),
   * and the added latency: a target's figure minus direct's.
   */
  latency: { direct: Pair; relay: Pair; router: Pair; relayAdded: Pair; routerAdded: Pair };
  /** Requests per second, 64 clients. */
  throughput: { direct: number; relay: number; router: number };
  /** One client, 200-chunk streams: medians of time to first byte and total time, ms. */
  stream: {
    direct: { ttfb: number; total: number };
    relay: { ttfb: number; total: number };
    router: { ttfb: number; total: number };
  };
  /** SSE chunks per second, 64 streaming clients. */
  streamRate: { direct: number; relay: number; router: number };
  /** p50s: the router failing over from an empty 200, the router served by the first model, direct to the server. */
  failover: { routerP50: number; servedFirstP50: number; directP50: number };
  openStreams: {
    count: number;
    holdMs: number;
    routerErrors: number;
    routerPeakRssMb: number;
    routerTtfbP99: number;
    relayErrors: number;
    relayPeakRssMb: number;
    relayTtfbP99: number;
  };
  sequential: {
    total: number;
    checkpoint: number;
    rssAtCheckpointMb: number;
    rssAtEndMb: number;
    readings: readonly { at: number; rssMb: number }[];
  };
  ranking: { models: number; providers: number; usPerRanking: number };
  flush: { entries: number; flushMs: number; loopBlockMs: number; p99Without: number; p99With: number };
  /** RSS read `settleMs` after the last of a few requests. */
  idle: { routerMb: number; relayMb: number; settleMs: number };
  /** CPU time per non-stream request at 64 clients of the process in the middle (the upstream's for direct). */
  cpuPerRequestUs: { direct: number; relay: number; router: number };
  /**
   * The router's three faces on the same 200-chunk stream: single-client medians of TTFB and total time (the
   * faces take turns stream by stream), the translating faces' chunks/s at 64 clients, and each round's ratio
   * of those over the router's chat-completions chunks/s of the same round (the median over rounds).
   */
  faces: {
    stream: Record<FaceName, { ttfb: number; total: number }>;
    streamRate: { messages: number; responses: number };
    pairedStreamRate: { messages: number; responses: number };
    /** What one stream cost the router on each face at 64 clients (chat: the router's stream run). */
    cost: Record<FaceName, RequestCost>;
    /** The same stream through the gate, the shaper and each face's encoder alone, in process. */
    encoding: Record<FaceName, RequestCost>;
  };
  /**
   * The multi-client workloads' router over relay, taken in each round and then the median over rounds:
   * the two ran one after the other, so a slow spell of the shared machine weighs on both halves of a ratio.
   */
  paired: { throughput: number; cpuPerRequest: number; streamRate: number };
  /** One model hangs, one is healthy: time to answer without and with hedging, and upstream requests spent. */
  hedge: HedgeSample;
  /** `clients` clients on fresh connections at once, `requests` per burst, `rounds` bursts per target. */
  burst: {
    clients: number;
    requests: number;
    rounds: number;
    direct: BurstFigures;
    relay: BurstFigures;
    router: BurstFigures;
  };
  /** The same burst against a provider that takes `upstreamMs` per answer, as real ones do. */
  slowBurst: {
    clients: number;
    requests: number;
    rounds: number;
    upstreamMs: number;
    direct: BurstFigures;
    relay: BurstFigures;
    router: BurstFigures;
  };
}

/**
 * RSS growth from the checkpoint to the end of the sequential run, in percent, read off the Theil–Sen line
 * through every reading from the checkpoint on. A leak is a steady trend, which the line recovers whole; one
 * reading at each end would measure the heap's sawtooth instead, and a least-squares line would count V8
 * growing its young generation (a one-off step of up to 30 MB when the request rate rises) as a slope.
 */
export function rssTrendGrowth(sequential: Measured['sequential']): { percent: number; readings: number } {
  const points = sequential.readings
    .filter((reading) => reading.at >= sequential.checkpoint && Number.isFinite(reading.rssMb))
    .map((reading) => ({ x: reading.at, y: reading.rssMb }));
  const { slope, intercept } = theilSenFit(points);
  const atCheckpoint = intercept + slope * sequential.checkpoint;
  const atEnd = intercept + slope * sequential.total;
  return { percent: (100 * (atEnd - atCheckpoint)) / atCheckpoint, readings: points.length };
}

const ratio = (a: number, b: number): number | null =>
  b > 0 && Number.isFinite(a) && Number.isFinite(b) ? a / b : null;

const DIAGNOSTIC = { bar: '(diagnostic, no bar)', pass: true } as const;

/** A translating face's rows: its added TTFB, chunks/s and cost per stream, each against the chat-completions path. */
function faceRows(m: Measured, face: 'messages' | 'responses', label: string): Row[] {
  const chat = m.faces.stream.chat;
  const mine = m.faces.stream[face];
  const paired = m.faces.pairedStreamRate[face];
  const costRow = (metric: string, unit: string, figure: keyof RequestCost): Row => ({
    workload: `${label} stream, 64 clients`,
    metric: `${metric} (${unit}; chat completions ${m.faces.cost.chat[figure].toFixed(1)})`,
    direct: null,
    relay: null,
    router: m.faces.cost[face][figure],
    ratio: ratio(m.faces.cost[face][figure], m.faces.cost.chat[figure]),
    ...DIAGNOSTIC,
  });
  return [
    {
      workload: `${label} stream 200 chunks, 1 client`,
      metric: `TTFB added over chat completions (ms; chat ${chat.ttfb.toFixed(3)})`,
      direct: null,
      relay: null,
      router: mine.ttfb - chat.ttfb,
      ratio: null,
      bar: '<= chat completions + 1 ms',
      pass: mine.ttfb <= chat.ttfb + 1,
    },
    {
      workload: `${label} stream, 64 clients`,
      metric: `chunks/s (chat completions ${Math.round(m.streamRate.router)})`,
      direct: null,
      relay: null,
      router: m.faces.streamRate[face],
      ratio: paired,
      bar: `>= ${FACE_STREAM_RATE_BAR}x chat completions`,
      pass: paired >= FACE_STREAM_RATE_BAR,
    },
    costRow('CPU per stream', 'us', 'cpuUs'),
    costRow('heap allocated per stream', 'KB', 'heapKb'),
  ];
}

const FACE_LABELS: readonly (readonly [FaceName, string])[] = [
  ['chat', 'Chat completions'],
  ['messages', 'Messages'],
  ['responses', 'Responses'],
];

/**
 * Each face's gate, shaper and encoder alone, in process, per 200-chunk stream (diagnostic): what translating
 * costs without the HTTP work around it. The ratio column is over chat completions' (which relays the bytes).
 */
function encodingRows(m: Measured): Row[] {
  const { encoding } = m.faces;
  return FACE_LABELS.flatMap(([face, label]) =>
    (['cpuUs', 'heapKb'] as const).map((figure) => ({
      workload: `${label} stream through gate and encoder, in process`,
      metric: figure === 'cpuUs' ? 'CPU per stream (us)' : 'heap allocated per stream (KB)',
      direct: null,
      relay: null,
      router: encoding[face][figure],
      ratio: face === 'chat' ? null : ratio(encoding[face][figure], encoding.chat[figure]),
      ...DIAGNOSTIC,
    })),
  );
}

/**
 * The hedging rows (diagnostic): without hedging a hanging first model costs the request timeout; with it,
 * about the hedge delay plus the healthy model's time. The ratio column is with over without.
 */
function hedgeRows(h: Measured['hedge']): Row[] {
  const workload = 'one model hangs, one healthy';
  const diagnostic = { direct: null, relay: null, bar: '(diagnostic, no bar)', pass: true };
  return [
    {
      ...diagnostic,
      workload,
      metric: `time to answer without hedging (ms; requestTimeoutMs ${h.requestTimeoutMs})`,
      router: h.withoutMs,
      ratio: null,
    },
    {
      ...diagnostic,
      workload,
      metric: `time to answer, hedgeAfterMs ${h.hedgeAfterMs} (ms; healthy model alone ${h.healthyMs.toFixed(1)})`,
      router: h.withMs,
      ratio: ratio(h.withMs, h.withoutMs),
    },
    {
      ...diagnostic,
      workload,
      metric: `upstream requests per answer with hedging (${h.upstreamWithout.toFixed(2)} without)`,
      router: h.upstreamWith,
      ratio: ratio(h.upstreamWith, h.upstreamWithout),
    },
  ];
}

/** Chunks/s a translating face keeps of the chat-completions path's, at 64 clients (the same round's). */
export const FACE_STREAM_RATE_BAR = 0.95;

/** The router's added single-client p50 at most this many times the bare relay's. */
export const ADDED_P50_BAR = 1.15;
/** The router's non-stream requests per second at 64 clients, at least this share of the relay's. */
export const THROUGHPUT_BAR = 0.9;

/** Every bar of the issue, in the order. */
export function evaluateBars(m: Measured): Row[] {
  const { latency: lat } = m;
  const growth = rssTrendGrowth(m.sequential);
  const rows: Row[] = [
    {
      workload: 'non-stream 1 KB, 1 client',
      metric: 'added latency p50 (ms)',
      direct: 0,
      relay: lat.relayAdded.p50,
      router: lat.routerAdded.p50,
      ratio: ratio(lat.routerAdded.p50, lat.relayAdded.p50),
      bar: `<= ${ADDED_P50_BAR}x relay and <= 1 ms`,
      pass:
        lat.routerAdded.p50 <= Math.max(ADDED_P50_BAR * lat.relayAdded.p50, 0) && lat.routerAdded.p50 <= 1,
    },
    {
      workload: 'non-stream 1 KB, 1 client',
      metric: 'added latency p99 (ms)',
      direct: 0,
      relay: lat.relayAdded.p99,
      router: lat.routerAdded.p99,
      ratio: ratio(lat.routerAdded.p99, lat.relayAdded.p99),
      bar: '<= 1.5x relay',
      pass: lat.routerAdded.p99 <= 1.5 * lat.relayAdded.p99,
    },
    {
      workload: 'non-stream, 64 clients',
      metric: 'throughput (req/s)',
      direct: m.throughput.direct,
      relay: m.throughput.relay,
      router: m.throughput.router,
      ratio: m.paired.throughput,
      bar: `>= ${THROUGHPUT_BAR}x relay`,
      pass: m.paired.throughput >= THROUGHPUT_BAR,
    },
    {
      workload: 'non-stream, 64 clients',
      metric: 'CPU per request (us)',
      direct: m.cpuPerRequestUs.direct,
      relay: m.cpuPerRequestUs.relay,
      router: m.cpuPerRequestUs.router,
      ratio: m.paired.cpuPerRequest,
      bar: '(diagnostic, no bar)',
      pass: true,
    },
    {
      workload: 'stream 200 chunks, 1 client',
      metric: 'TTFB added (ms)',
      direct: 0,
      relay: m.stream.relay.ttfb - m.stream.direct.ttfb,
      router: m.stream.router.ttfb - m.stream.direct.ttfb,
      ratio: ratio(m.stream.router.ttfb - m.stream.direct.ttfb, m.stream.relay.ttfb - m.stream.direct.ttfb),
      bar: '<= relay + 1 ms',
      pass: m.stream.router.ttfb <= m.stream.relay.ttfb + 1,
    },
    {
      workload: 'stream 200 chunks, 1 client',
      metric: 'total time (ms)',
      direct: m.stream.direct.total,
      relay: m.stream.relay.total,
      router: m.stream.router.total,
      ratio: ratio(m.stream.router.total, m.stream.relay.total),
      bar: '<= 1.1x relay',
      pass: m.stream.router.total <= 1.1 * m.stream.relay.total,
    },
    {
      workload: 'stream, 64 clients',
      metric: 'chunks/s',
      direct: m.streamRate.direct,
      relay: m.streamRate.relay,
      router: m.streamRate.router,
      ratio: m.paired.streamRate,
      bar: '>= 0.7x relay',
      pass: m.paired.streamRate >= 0.7,
    },
    ...faceRows(m, 'messages', 'Messages'),
    ...faceRows(m, 'responses', 'Responses'),
    ...encodingRows(m),
    {
      workload: 'failover: empty 200, then served',
      metric: 'p50 added beyond 2nd model (ms)',
      direct: m.failover.directP50,
      relay: null,
      router: m.failover.routerP50 - m.failover.directP50,
      ratio: null,
      bar: '<= 2 ms',
      pass: m.failover.routerP50 - m.failover.directP50 <= 2,
    },
    {
      workload: `${m.openStreams.count} open streams, ${m.openStreams.holdMs / 1000} s`,
      metric: 'errors',
      direct: null,
      relay: m.openStreams.relayErrors,
      router: m.openStreams.routerErrors,
      ratio: null,
      bar: '0',
      pass: m.openStreams.routerErrors === 0,
    },
    {
      workload: `${m.openStreams.count} open streams, ${m.openStreams.holdMs / 1000} s`,
      metric: 'peak RSS (MB)',
      direct: null,
      relay: m.openStreams.relayPeakRssMb,
      router: m.openStreams.routerPeakRssMb,
      ratio: ratio(m.openStreams.routerPeakRssMb, m.openStreams.relayPeakRssMb),
      bar: '<= 250 MB',
      pass: m.openStreams.routerPeakRssMb <= 250,
    },
    {
      workload: `${m.openStreams.count} open streams, ${m.openStreams.holdMs / 1000} s`,
      metric: 'TTFB p99 (ms)',
      direct: null,
      relay: m.openStreams.relayTtfbP99,
      router: m.openStreams.routerTtfbP99,
      ratio: ratio(m.openStreams.routerTtfbP99, m.openStreams.relayTtfbP99),
      bar: '(diagnostic, no bar)',
      pass: true,
    },
    {
      workload: `${m.sequential.total / 1000} k sequential requests`,
      metric: `RSS growth ${m.sequential.checkpoint / 1000} k -> ${m.sequential.total / 1000} k, Theil-Sen trend of ${growth.readings} readings (%)`,
      direct: null,
      relay: null,
      router: growth.percent,
      ratio: null,
      bar: '<= 10 %',
      pass: growth.percent <= 10,
    },
    {
      workload: `${m.sequential.total / 1000} k sequential requests`,
      metric: `RSS at ${m.sequential.total / 1000} k (MB; ${m.sequential.rssAtCheckpointMb.toFixed(1)} at ${m.sequential.checkpoint / 1000} k)`,
      direct: null,
      relay: null,
      router: m.sequential.rssAtEndMb,
      ratio: null,
      bar: '(diagnostic, no bar)',
      pass: true,
    },
    {
      workload: `ranking ${m.ranking.models} models, ${m.ranking.providers} providers`,
      metric: 'us per request',
      direct: null,
      relay: null,
      router: m.ranking.usPerRanking,
      ratio: null,
      bar: '<= 50 us',
      pass: m.ranking.usPerRanking <= 50,
    },
    {
      workload: `breaker store, ${m.flush.entries} entries`,
      metric: 'flush time (ms)',
      direct: null,
      relay: null,
      router: m.flush.flushMs,
      ratio: null,
      bar: '<= 50 ms',
      pass: m.flush.flushMs <= 50,
    },
    {
      workload: `breaker store, ${m.flush.entries} entries`,
      metric: 'event-loop stall per flush (ms)',
      direct: null,
      relay: null,
      router: m.flush.loopBlockMs,
      ratio: null,
      bar: '<= 50 ms',
      pass: m.flush.loopBlockMs <= 50,
    },
    {
      workload: `breaker store, ${m.flush.entries} entries`,
      metric: `request p99 with flushes (ms; ${m.flush.p99Without.toFixed(2)} without)`,
      direct: null,
      relay: null,
      router: m.flush.p99With,
      ratio: ratio(m.flush.p99With, m.flush.p99Without),
      bar: 'unaffected: <= 1.2x without + 1 ms',
      pass: m.flush.p99With <= 1.2 * m.flush.p99Without + 1,
    },
    {
      workload: 'idle daemon',
      metric: `RSS after ${m.idle.settleMs / 1000} s without requests (MB)`,
      direct: null,
      relay: m.idle.relayMb,
      router: m.idle.routerMb,
      ratio: ratio(m.idle.routerMb, m.idle.relayMb),
      bar: '<= 80 MB',
      pass: m.idle.routerMb <= 80,
    },
    ...hedgeRows(m.hedge),
  ];
  rows.push(...burstRows(m.burst), slowBurstRow(m.slowBurst));
  return rows;
}

type BurstTargets = Pick<Measured['burst'], 'direct' | 'relay' | 'router'>;

/**
 * One figure of a burst for the three targets, the router against the relay (or against direct, with
 * `against`); a diagnostic unless `bar` is given.
 */
function burstRow(
  row: { workload: string; metric: string; against?: 'direct' },
  b: BurstTargets,
  figure: keyof BurstFigures,
  bar?: { text: string; pass: boolean },
): Row {
  const reference = row.against === 'direct' ? b.direct[figure] : b.relay[figure];
  return {
    workload: row.workload,
    metric: row.metric,
    direct: b.direct[figure],
    relay: b.relay[figure],
    router: b.router[figure],
    ratio: ratio(b.router[figure], reference),
    ...(row.against ? { against: row.against } : {}),
    bar: bar?.text ?? '(diagnostic, no bar)',
    pass: bar?.pass ?? true,
  };
}

/**
 * The burst's bar and its worst request, as a diagnostic, both against the bare relay of the same run: at
 * 2 000 clients the two shared cores are saturated by the client, the upstream and the process in the
 * middle, so a proxy is held to the cheapest proxy, not to the upstream alone.
 */
export function burstRows(b: Measured['burst']): Row[] {
  const workload = `burst: ${b.clients} clients, ${b.requests / 1000} k requests x ${b.rounds}`;
  return [
    burstRow({ workload, metric: 'p99 (ms)' }, b, 'p99', {
      text: '<= relay',
      pass: b.router.p99 <= b.relay.p99,
    }),
    burstRow({ workload, metric: 'worst request (ms)' }, b, 'max'),
  ];
}

/**
 * The burst against a provider that takes its time: the cores are no longer saturated by the burst alone,
 * so this p99 shows what the router adds to 2 000 agents at once on a real provider (a diagnostic beside
 * the bar above, which it does not replace).
 */
export function slowBurstRow(b: Measured['slowBurst']): Row {
  const workload = `burst, provider taking ${b.upstreamMs / 1000} s: ${b.clients} clients, ${b.requests / 1000} k requests x ${b.rounds}`;
  return burstRow({ workload, metric: 'p99 (ms)', against: 'direct' }, b, 'p99');
}
