import { describe, expect, test } from 'vitest';
import {
  countOf,
  wordList,
  formatDuration,
  formatLatency,
  formatPercent,
  formatRate,
  formatTokens,
  formatUptime,
  humanizeUnit,
} from './format.js';

describe('format', () => {
  test('durations pick a readable unit and never go negative', () => {
    expect(formatDuration(-5)).toBe('0 s');
    expect(formatDuration(41_200)).toBe('42 s');
    expect(formatDuration(187_000)).toBe('3:07');
    expect(formatDuration(3_900_000)).toBe('1 h 05 m');
    expect(formatDuration(2 * 86_400_000 + 4 * 3_600_000)).toBe('2 d 4 h');
  });

  test('uptime always carries its units', () => {
    expect(formatUptime(41_900)).toBe('41 s');
    expect(formatUptime(189_000)).toBe('3 min 09 s');
    expect(formatUptime(3_900_000)).toBe('1 h 05 min');
    expect(formatUptime(2 * 86_400_000 + 4 * 3_600_000)).toBe('2 d 4 h');
  });

  test('token counts stay short', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(12_440)).toBe('12k');
    expect(formatTokens(1_440)).toBe('1.4k');
    expect(formatTokens(3_240_000)).toBe('3.2M');
  });

  test('latencies and percentages', () => {
    expect(formatLatency(812.4)).toBe('812 ms');
    expect(formatLatency(1240)).toBe('1.24 s');
    expect(formatLatency(null)).toBe('–');
    expect(formatPercent(0.126)).toBe('13%');
    expect(formatPercent(null)).toBe('–');
  });

  test('config units', () => {
    expect(humanizeUnit(30_000, 'ms')).toBe('30 s');
    expect(humanizeUnit(300_000, 'ms')).toBe('5 min');
    expect(humanizeUnit(262_144, 'bytes')).toBe('256 KiB');
  });

  test('a rate shows one decimal below 10 and none above', () => {
    expect(formatRate(4.25)).toBe('4.3');
    expect(formatRate(14822.5)).toBe('14823');
    expect(formatRate(3354)).toBe('3354');
    expect(formatRate(null)).toBe('–');
  });

  test('a count takes the singular for one only', () => {
    expect(countOf(1, 'model')).toBe('1 model');
    expect(countOf(0, 'model')).toBe('0 models');
    expect(countOf(20, 'provider')).toBe('20 providers');
  });
});

test('wordList joins names as words', () => {
  expect(wordList([])).toBe('');
  expect(wordList(['A'])).toBe('A');
  expect(wordList(['A', 'B'])).toBe('A and B');
  expect(wordList(['A', 'B', 'C'])).toBe('A, B and C');
});
