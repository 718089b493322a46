import { expect, test } from 'vitest';
import { timeTickLabels, timeTickSpace } from './time-axis.js';

test('time ticks read as the tables write times: 24-hour clock within a day, ISO dates for days', () => {
  const at = new Date(2026, 10, 3, 15, 40).getTime() / 1000;
  expect(timeTickLabels([at, at + 600], 600)).toEqual(['15:40', '15:50']);
  expect(timeTickLabels([at, at + 86_400], 86_400)).toEqual(['2026-11-03', '2026-11-04']);
  expect(timeTickLabels([new Date(2026, 0, 5, 9, 5).getTime() / 1000], 300)).toEqual(['09:05']);
});

test('date ticks are spaced for a date label, clock ticks for a clock time', () => {
  const day = 86_400;
  expect(timeTickSpace(0, 30 * day)).toBe(90);
  expect(timeTickSpace(0, 2 * day)).toBe(90);
  expect(timeTickSpace(0, 3600)).toBe(60);
  expect(timeTickSpace(0, 2 * day - 1)).toBe(60);
});
