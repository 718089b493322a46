import { expect, test } from 'vitest';
import type { KeyBudgetView } from '../../../../router/api-types.js';
import { budgetMeters, budgetUsed } from './budget-use.js';

const budget = (over: Partial<KeyBudgetView> = {}): KeyBudgetView => ({
  provider: 'groq',
  key: '1a2b3c4d5e6f',
  model: 'groq/llama',
  dayRequests: 12,
  dayTokens: 3400,
  minuteRequests: 1,
  minuteTokens: 250,
  limits: { rpm: 30, rpd: 1000, tpm: 6000, tpd: 100_000 },
  ...over,
});

test('each limit the provider sets, with its use: the day’s and the minute’s', () => {
  expect(budgetMeters(budget()).map((m) => `${m.label}: ${m.text}`)).toEqual([
    'requests today: 12 / 1,000',
    'tokens today: 3.4k / 100k',
    'requests this minute: 1 / 30',
    'tokens this minute: 250 / 6k',
  ]);
  const onlyRpm = budget({ limits: { rpm: 40, rpd: null, tpm: null, tpd: null } });
  expect(budgetMeters(onlyRpm)).toEqual([
    { label: 'requests this minute', used: 1, limit: 40, text: '1 / 40' },
  ]);
});

test('a budget untouched today and this minute reads as unused', () => {
  expect(budgetUsed(budget())).toBe(true);
  expect(budgetUsed(budget({ dayRequests: 0, dayTokens: 0, minuteRequests: 0, minuteTokens: 0 }))).toBe(
    false,
  );
});
