import { expect, test } from 'vitest';
import { reconnectDelayMs } from './backoff.js';

test('reconnect delay doubles from 1 s, caps at 30 s and stays within the jitter band', () => {
  const mid = () => 0.5;
  expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => reconnectDelayMs(n, mid))).toEqual([
    1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
  ]);
  expect(reconnectDelayMs(1, () => 0)).toBe(800);
  expect(reconnectDelayMs(1, () => 1)).toBe(1200);
});
