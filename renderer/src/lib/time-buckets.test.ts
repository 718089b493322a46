import { describe, expect, it } from 'vitest';
import { chartEnd, timeBuckets } from './time-buckets.js';

describe('timeBuckets', () => {
  it('puts the edges on the clock, the newest slice holding now', () => {
    const buckets = timeBuckets(10_500, 4_000, 1_000);
    expect(buckets.count).toBe(4);
    expect(buckets.t).toEqual([7, 8, 9, 10]);
    expect(buckets.indexOf(10_500)).toBe(3);
    expect(buckets.indexOf(10_999)).toBe(3);
    expect(buckets.indexOf(7_000)).toBe(0);
  });

  it('places nothing outside the span', () => {
    const buckets = timeBuckets(10_500, 4_000, 1_000);
    expect(buckets.indexOf(6_999)).toBeNull();
    expect(buckets.indexOf(11_000)).toBeNull();
  });

  it('rounds a span that is not a whole number of slices up', () => {
    expect(timeBuckets(0, 2_500, 1_000).count).toBe(3);
  });
});

describe('chartEnd', () => {
  it('ends at the end of the minute of now', () => {
    expect(chartEnd(90_000)).toBe(119_999);
    expect(chartEnd(90_000, [{ at: 10_000 }, { at: 61_000 }])).toBe(119_999);
  });

  it('reaches the minute of an entry newer than the clock’s last tick', () => {
    expect(chartEnd(90_000, [{ at: 10_000 }, { at: 125_000 }])).toBe(179_999);
    const end = chartEnd(90_000, [{ at: 125_000 }]);
    expect(timeBuckets(end, 3_600_000, 120_000).indexOf(125_000)).not.toBeNull();
  });
});
