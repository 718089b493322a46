import { describe, expect, test } from 'vitest';
import { axisTicks, axisTop } from './axis-scale.js';

describe('axisTop and axisTicks', () => {
  test('a p95 of 3.05 s gets a 4 s top, labelled, with 2 s between', () => {
    expect(axisTop(3050, 100)).toBe(4000);
    expect(axisTicks(4000)).toEqual([0, 2000, 4000]);
  });

  test('a value on a round number still gets room above it', () => {
    expect(axisTop(2000, 100)).toBe(3000);
    expect(axisTicks(3000)).toEqual([0, 1000, 2000, 3000]);
  });

  test('small or missing data take the least top, counted in whole units', () => {
    expect(axisTop(43, 100)).toBe(100);
    expect(axisTicks(100)).toEqual([0, 50, 100]);
    expect(axisTop(null)).toBe(1);
    expect(axisTop(Number.NaN, 100)).toBe(100);
    expect(axisTicks(1)).toEqual([0, 1]);
    expect(axisTop(1)).toBe(2);
    expect(axisTicks(2)).toEqual([0, 1, 2]);
  });

  test('for any maximum: the top is above it, and the ticks end at the top in two or three steps', () => {
    for (const max of [1, 3, 7, 9, 10, 42, 99, 250, 999, 1234, 2750, 5000, 9999, 123_456, 7_654_321]) {
      const top = axisTop(max);
      expect(top, `top for ${max}`).toBeGreaterThan(max);
      const ticks = axisTicks(top);
      expect(ticks.at(-1), `last tick for ${max}`).toBe(top);
      expect(ticks.length, `ticks for ${max}: ${ticks.join(', ')}`).toBeGreaterThanOrEqual(3);
      expect(ticks.length, `ticks for ${max}: ${ticks.join(', ')}`).toBeLessThanOrEqual(4);
    }
  });
});
