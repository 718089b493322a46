import { expect, test } from 'vitest';
import { usageWords } from './ModelUsage.js';

test('a model’s usage today in words: tokens, estimated ones, and its daily budget share', () => {
  expect(usageWords(undefined)).toBe('no tokens today');
  expect(
    usageWords({ model: 'a/m', requests: 3, tokens: 12_400, estimatedTokens: 0, budgetShare: 0.25 }),
  ).toBe('12k tokens today · 25% of the daily free budget');
  expect(
    usageWords({ model: 'a/m', requests: 1, tokens: 800, estimatedTokens: 800, budgetShare: null }),
  ).toBe('800 tokens today (800 estimated)');
});
