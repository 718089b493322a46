import { describe, expect, test } from 'vitest';
import type { UsageDayView, UsageEntryView } from '../../../router/api-types.js';
import { dailyUsage, dayRange } from './usage-series.js';

function entry(model: string, key: string, requests: number, tokens = requests * 10): UsageEntryView {
  return { model, key, requests, promptTokens: tokens - 1, completionTokens: 1, estimatedTokens: 0 };
}

function day(date: string, entries: UsageEntryView[]): UsageDayView {
  const total = (pick: (e: UsageEntryView) => number) => entries.reduce((n, e) => n + pick(e), 0);
  return {
    day: date,
    requests: total((e) => e.requests),
    promptTokens: total((e) => e.promptTokens),
    completionTokens: total((e) => e.completionTokens),
    estimatedTokens: 0,
    entries,
  };
}

const USAGE = {
  keptDays: 4,
  days: [
    day('2030-03-02', [entry('groq/a', 'k1', 3), entry('groq/b', 'k2', 1), entry('mine/m', '', 2)]),
    day('2030-02-27', [entry('groq/a', 'k1', 5, 7)]),
  ],
};

describe('daily usage', () => {
  test('every day of the kept span up to today, across a month’s end, without gaps', () => {
    expect(dayRange(USAGE, '2030-03-02')).toEqual(['2030-02-27', '2030-02-28', '2030-03-01', '2030-03-02']);
    // Nothing used for a while: still the whole span, ending today.
    expect(dayRange({ keptDays: 3, days: [] }, '2030-03-01')).toEqual([
      '2030-02-27',
      '2030-02-28',
      '2030-03-01',
    ]);
    // A day kept from before the span (the clock moved back) is still shown.
    expect(dayRange({ ...USAGE, keptDays: 2 }, '2030-03-02')[0]).toBe('2030-02-27');
  });

  test('split by provider, model or key, largest first; totals per day', () => {
    const byProvider = dailyUsage(USAGE, { split: 'provider', measure: 'requests', today: '2030-03-02' });
    expect(byProvider.series).toEqual([
      { name: 'groq', values: [5, 0, 0, 4] },
      { name: 'mine', values: [0, 0, 0, 2] },
    ]);
    expect(byProvider.totals).toEqual([5, 0, 0, 6]);
    const byKey = dailyUsage(USAGE, { split: 'key', measure: 'tokens', today: '2030-03-02' });
    expect(byKey.series.map((s) => [s.name, s.values.at(-1)])).toEqual([
      ['groq · k1', 30],
      ['mine · no key', 20],
      ['groq · k2', 10],
    ]);
    expect(byKey.series[0]?.values[0]).toBe(7);
    expect(dailyUsage(USAGE, { split: 'total', measure: 'requests', today: '2030-03-02' }).series).toEqual([
      { name: 'all', values: [5, 0, 0, 6] },
    ]);
  });

  test('past the most series shown, the smallest are summed as other', () => {
    const byModel = dailyUsage(USAGE, {
      split: 'model',
      measure: 'requests',
      today: '2030-03-02',
      max: 2,
    });
    expect(byModel.series).toEqual([
      { name: 'groq/a', values: [5, 0, 0, 3] },
      { name: 'other (2)', values: [0, 0, 0, 3] },
    ]);
  });
});
