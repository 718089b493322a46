import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rssTrendGrowth, type Measured } from './bars.js';
import { linearFit } from './stats.js';

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

describe('linearFit', () => {
  it('recovers an exact line', () => {
    const fit = linearFit([0, 1, 2, 3].map((x) => ({ x, y: 5 + 2 * x })));
    assert.equal(fit.slope, 2);
    assert.equal(fit.intercept, 5);
  });

  it('is NaN without two distinct x', () => {
    assert.ok(Number.isNaN(linearFit([{ x: 1, y: 2 }]).slope));
    assert.ok(
      Number.isNaN(
        linearFit([
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

  it('leaves out readings taken before the checkpoint (warm-up)', () => {
    const warmThenFlat = run(100_000, (at) => (at < 10_000 ? 60 + at / 500 : 80));
    assert.ok(Math.abs(rssTrendGrowth(warmThenFlat).percent) < 1e-9);
  });
});
