import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textTable } from './report.js';
import { evaluateBars, rssTrendGrowth, type Measured } from './bars.js';
import { theilSenFit } from './stats.js';

type Sequential = Measured['sequential'];

/** 100 readings over `total` requests from `rss(at)`. */
function run(total: number, rss: (at: number) => number): Sequential {
  const step = total / 100;
  const readings = Array.from({ length: 100 }, (_, i) => ({
    at: (i + 1) * step,
    rssMb: rss((i + 1) * step),
  }));
  return {
    total,
    checkpoint: total / 10,
    rssAtCheckpointMb: rss(total / 10),
    rssAtEndMb: rss(total),
    readings,
  };
}

describe('theilSenFit', () => {
  it('recovers an exact line', () => {
    const fit = theilSenFit([0, 1, 2, 3].map((x) => ({ x, y: 5 + 2 * x })));
    assert.equal(fit.slope, 2);
    assert.equal(fit.intercept, 5);
  });

  it('is barely moved by outliers that would tilt a least-squares line', () => {
    const points = Array.from({ length: 20 }, (_, x) => ({ x, y: 3 + 0.5 * x }));
    points[18] = { x: 18, y: 500 };
    points[19] = { x: 19, y: 800 };
    const fit = theilSenFit(points);
    assert.ok(Math.abs(fit.slope - 0.5) < 0.05, String(fit.slope));
  });

  it('is NaN without two distinct x', () => {
    assert.ok(Number.isNaN(theilSenFit([{ x: 1, y: 2 }]).slope));
    assert.ok(
      Number.isNaN(
        theilSenFit([
          { x: 1, y: 2 },
          { x: 1, y: 3 },
        ]).slope,
      ),
    );
  });
});

describe('rssTrendGrowth', () => {
  it('reads a steady leak as growth', () => {
    // 100 MB at the start, +0.2 MB per 1000 requests: 18 MB over 10 k -> 100 k.
    const growth = rssTrendGrowth(run(100_000, (at) => 100 + (0.2 * at) / 1000));
    assert.equal(growth.readings, 91);
    assert.ok(Math.abs(growth.percent - (100 * 18) / 102) < 1e-9, String(growth.percent));
  });

  it('reads a flat sawtooth as no growth even when the last reading sits on a peak', () => {
    // 110 MB +- 6 MB with a 12 k period: a trough at the checkpoint, a peak 7.5 periods later at the end.
    const sequential = run(100_000, (at) => 110 - 6 * Math.cos((2 * Math.PI * (at - 10_000)) / 12_000));
    const endpoints =
      (100 * (sequential.rssAtEndMb - sequential.rssAtCheckpointMb)) / sequential.rssAtCheckpointMb;
    assert.ok(endpoints > 10, `two-point growth ${endpoints}`);
    assert.ok(Math.abs(rssTrendGrowth(sequential).percent) < 2);
  });

  it('reads one step of the young generation early in the run as a step, not as a leak', () => {
    // 100 MB until 31 k requests, then 116 MB to the end (V8's new space growing from 2 to 32 MB).
    const step = run(100_000, (at) => (at < 31_000 ? 100 : 116));
    assert.ok(Math.abs(rssTrendGrowth(step).percent) < 2, String(rssTrendGrowth(step).percent));
    // The same 16 MB spread evenly over the run is a leak and is read in full.
    const leak = run(100_000, (at) => 100 + (16 * (at - 10_000)) / 90_000);
    assert.ok(Math.abs(rssTrendGrowth(leak).percent - 16) < 1e-6, String(rssTrendGrowth(leak).percent));
  });

  it('leaves out readings taken before the checkpoint (warm-up)', () => {
    const warmThenFlat = run(100_000, (at) => (at < 10_000 ? 60 + at / 500 : 80));
    assert.ok(Math.abs(rssTrendGrowth(warmThenFlat).percent) < 1e-9);
  });
});

describe('evaluateBars', () => {
  const pair = (p50: number, p99: number) => ({ p50, p99 });
  const measured = (paired: Measured['paired']): Measured => ({
    latency: {
      direct: pair(0.1, 0.2),
      relay: pair(0.3, 0.6),
      router: pair(0.32, 0.8),
      relayAdded: pair(0.2, 0.4),
      routerAdded: pair(0.22, 0.6),
    },
    throughput: { direct: 20_000, relay: 10_000, router: 6_800 },
    stream: {
      direct: { ttfb: 0.1, total: 2 },
      relay: { ttfb: 0.3, total: 2.2 },
      router: { ttfb: 0.5, total: 2.5 },
    },
    streamRate: { direct: 100_000, relay: 90_000, router: 80_000 },
    failover: { routerP50: 0.6, servedFirstP50: 0.4, directP50: 0.1 },
    openStreams: {
      count: 500,
      holdMs: 30_000,
      routerErrors: 0,
      routerPeakRssMb: 130,
      routerTtfbP99: 200,
      relayErrors: 0,
      relayPeakRssMb: 120,
      relayTtfbP99: 150,
    },
    sequential: run(100_000, () => 110),
    ranking: { models: 222, providers: 20, usPerRanking: 30 },
    flush: { entries: 10_000, flushMs: 15, loopBlockMs: 8, p99Without: 1, p99With: 1.1 },
    idle: { routerMb: 70, relayMb: 90, settleMs: 10_000 },
    cpuPerRequestUs: { direct: 30, relay: 90, router: 140 },
    faces: {
      stream: {
        chat: { ttfb: 0.5, total: 2.5 },
        messages: { ttfb: 0.6, total: 3 },
        responses: { ttfb: 1.6, total: 3.5 },
      },
      // Medians of 0.9x and 1.0x the chat-completions 80 000; the paired rounds say 0.96x and 0.94x.
      streamRate: { messages: 72_000, responses: 80_000 },
      pairedStreamRate: { messages: 0.96, responses: 0.94 },
      cost: {
        chat: { cpuUs: 800, heapKb: 90 },
        messages: { cpuUs: 1000, heapKb: 270 },
        responses: { cpuUs: 1200, heapKb: 360 },
      },
      encoding: {
        chat: { cpuUs: 100, heapKb: 16 },
        messages: { cpuUs: 400, heapKb: 220 },
        responses: { cpuUs: 380, heapKb: 230 },
      },
    },
    paired,
    hedge: {
      requestTimeoutMs: 1000,
      hedgeAfterMs: 200,
      withoutMs: 1004,
      withMs: 203,
      healthyMs: 0.6,
      upstreamWithout: 2,
      upstreamWith: 2,
      errors: 0,
    },
    burst: {
      clients: 2000,
      requests: 20_000,
      rounds: 3,
      direct: { p99: 400, max: 450, errors: 0 },
      relay: { p99: 700, max: 900, errors: 0 },
      router: { p99: 800, max: 2500, errors: 0 },
    },
    slowBurst: {
      clients: 2000,
      requests: 6000,
      rounds: 3,
      upstreamMs: 1000,
      direct: { p99: 1300, max: 1350, errors: 0 },
      relay: { p99: 1700, max: 1750, errors: 0 },
      router: { p99: 1820, max: 1860, errors: 0 },
    },
  });
  const byMetric = (rows: ReturnType<typeof evaluateBars>, metric: string) => {
    const row = rows.find((candidate) => candidate.metric.startsWith(metric));
    assert.ok(row, metric);
    return row;
  };

  it("judges the multi-client ratio bars by the median of each round's ratio", () => {
    // The medians alone (6 800 / 10 000 req/s) would read 0.68x; the paired rounds say 0.91x.
    const good = evaluateBars(measured({ throughput: 0.91, cpuPerRequest: 1.5, streamRate: 0.9 }));
    assert.equal(byMetric(good, 'throughput').pass, true);
    assert.equal(byMetric(good, 'throughput').ratio, 0.91);
    assert.equal(byMetric(good, 'throughput').bar, '>= 0.9x relay');
    assert.equal(byMetric(good, 'chunks/s').pass, true);
    const bad = evaluateBars(measured({ throughput: 0.89, cpuPerRequest: 1.7, streamRate: 0.65 }));
    assert.equal(byMetric(bad, 'throughput').pass, false);
    assert.equal(byMetric(bad, 'chunks/s').pass, false);
  });

  it('judges the single-client bars on the pooled figures', () => {
    const paired = { throughput: 1, cpuPerRequest: 1, streamRate: 1 };
    const rows = evaluateBars(measured(paired));
    // Added latency 0.22 over the relay's 0.2 (1.1x, p50; the bar is 1.15x) and 0.6 over 0.4 (1.5x, p99): both
    // pass.
    assert.equal(byMetric(rows, 'added latency p50').pass, true);
    assert.equal(byMetric(rows, 'added latency p50').bar, '<= 1.15x relay and <= 1 ms');
    assert.equal(byMetric(rows, 'added latency p99').pass, true);
    assert.equal(byMetric(rows, 'total time').pass, false, "2.5 ms over the relay's 2.2 is 1.14x");

    const slow = measured(paired);
    slow.latency.routerAdded = pair(0.24, 0.61);
    assert.equal(byMetric(evaluateBars(slow), 'added latency p50').pass, false);
    assert.equal(byMetric(evaluateBars(slow), 'added latency p99').pass, false);
  });

  it('still holds the added p50 to 1 ms whatever the ratio', () => {
    const m = measured({ throughput: 1, cpuPerRequest: 1, streamRate: 1 });
    m.latency.relayAdded = pair(1, 1.2);
    m.latency.routerAdded = pair(1.2, 1.5);
    assert.equal(byMetric(evaluateBars(m), 'added latency p50').pass, false);
  });

  it('holds each translating face to the chat-completions path of the same run', () => {
    const rows = evaluateBars(measured({ throughput: 1, cpuPerRequest: 1, streamRate: 1 }));
    const row = (workload: string) => {
      const found = rows.find((candidate) => candidate.workload === workload);
      assert.ok(found, workload);
      return found;
    };
    // TTFB: 0.1 ms over chat passes; 1.1 ms over it misses.
    assert.ok(Math.abs(row('Messages stream 200 chunks, 1 client').router - 0.1) < 1e-9);
    assert.equal(row('Messages stream 200 chunks, 1 client').pass, true);
    assert.equal(row('Responses stream 200 chunks, 1 client').pass, false);
    // chunks/s: judged by the paired ratio against the 0.95x bar, not by the medians.
    const rate = (label: string) => rows.find((r) => r.workload === label && r.metric.startsWith('chunks/s'));
    assert.equal(rate('Messages stream, 64 clients')?.ratio, 0.96);
    assert.equal(rate('Messages stream, 64 clients')?.pass, true);
    assert.equal(rate('Responses stream, 64 clients')?.pass, false);
  });

  it("shows each face's CPU and heap per stream beside the chat-completions path's, without judging them", () => {
    const rows = evaluateBars(measured({ throughput: 1, cpuPerRequest: 1, streamRate: 1 }));
    const cost = rows.filter(
      (r) => r.workload === 'Messages stream, 64 clients' && r.bar.includes('diagnostic'),
    );
    assert.deepEqual(
      cost.map((r) => [r.metric, r.router, r.ratio]),
      [
        ['CPU per stream (us; chat completions 800.0)', 1000, 1.25],
        ['heap allocated per stream (KB; chat completions 90.0)', 270, 3],
      ],
    );
  });

  it("shows each face's gate and encoder alone, in process, against chat completions'", () => {
    const rows = evaluateBars(measured({ throughput: 1, cpuPerRequest: 1, streamRate: 1 }));
    const alone = rows.filter((r) => r.workload.endsWith('through gate and encoder, in process'));
    assert.deepEqual(
      alone.map((r) => [r.workload.split(' ')[0], r.metric.split(' ')[0], r.router, r.ratio, r.pass]),
      [
        ['Chat', 'CPU', 100, null, true],
        ['Chat', 'heap', 16, null, true],
        ['Messages', 'CPU', 400, 4, true],
        ['Messages', 'heap', 220, 13.75, true],
        ['Responses', 'CPU', 380, 3.8, true],
        ['Responses', 'heap', 230, 14.375, true],
      ],
    );
  });

  it('shows hedging as diagnostic rows: the time to answer without and with it, and the upstream requests', () => {
    const rows = evaluateBars(measured({ throughput: 1, cpuPerRequest: 1, streamRate: 1 }));
    const hedge = rows.filter((row) => row.workload === 'one model hangs, one healthy');
    assert.deepEqual(
      hedge.map((row) => [row.router, row.pass, row.bar]),
      [
        [1004, true, '(diagnostic, no bar)'],
        [203, true, '(diagnostic, no bar)'],
        [2, true, '(diagnostic, no bar)'],
      ],
    );
    assert.ok(Math.abs((hedge[1]?.ratio ?? 0) - 203 / 1004) < 1e-9);
  });

  it("holds the burst's p99 through the router to the bare relay's of the same run, and reports its worst request", () => {
    const m = measured({ throughput: 1, cpuPerRequest: 1, streamRate: 1 });
    m.burst.router = { p99: 700, max: 2500, errors: 0 };
    const rows = evaluateBars(m);
    assert.equal(byMetric(rows, 'p99').pass, true, "700 ms against the relay's 700 is at the bar");
    assert.equal(byMetric(rows, 'p99').ratio, 1);
    assert.equal(byMetric(rows, 'p99').against, undefined, 'the ratio is over the relay');
    assert.equal(byMetric(rows, 'p99').bar, '<= relay');
    assert.equal(byMetric(rows, 'worst request').pass, true, 'a diagnostic');
    assert.equal(byMetric(rows, 'worst request').router, 2500);
    // Within twice direct's 400 ms, but over the relay's: a miss.
    m.burst.router = { p99: 701, max: 900, errors: 0 };
    assert.equal(byMetric(evaluateBars(m), 'p99').pass, false);
  });

  it('reports the burst against a slow provider beside the bar, against direct, without judging it', () => {
    const m = measured({ throughput: 1, cpuPerRequest: 1, streamRate: 1 });
    const rows = evaluateBars(m);
    const slow = rows.at(-1);
    assert.ok(slow);
    assert.match(slow.workload, /^burst, provider taking 1 s: 2000 clients, 6 k requests x 3$/);
    assert.deepEqual([slow.router, slow.ratio, slow.against, slow.pass], [1820, 1.4, 'direct', true]);
    // The burst bar's row keeps its own figures: the slow burst does not stand in for it.
    assert.equal(rows.filter((row) => row.bar === '<= relay').length, 1);
    assert.equal(byMetric(rows, 'p99').router, 800);
    assert.match(textTable([slow]), /1\.4x direct/);
  });
});
