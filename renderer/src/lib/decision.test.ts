import { expect, test } from 'vitest';
import { parseDecision } from './decision.js';

test('parses the decision header, splitting attempts at their last colon', () => {
  expect(
    parseDecision('demo-fast/coder!served|demo-flaky/empty-200:empty_choices->demo-fast/coder:200|skips=1'),
  ).toEqual({
    model: 'demo-fast/coder',
    outcome: 'served',
    attempts: [
      { model: 'demo-flaky/empty-200', result: 'empty_choices' },
      { model: 'demo-fast/coder', result: '200' },
    ],
    skips: 1,
  });
  expect(
    parseDecision('openrouter/x:free!all_failed|openrouter/x:free:rate_limit|skips=0')?.attempts,
  ).toEqual([{ model: 'openrouter/x:free', result: 'rate_limit' }]);
  expect(parseDecision(null)).toBeNull();
  expect(parseDecision('garbage')).toBeNull();
});
