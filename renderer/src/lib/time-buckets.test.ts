import { describe, expect, it } from 'vitest';
import { timeBuckets } from './time-buckets.js';

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
