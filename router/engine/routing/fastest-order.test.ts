import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LatencyFigures } from '../../state/model-stats.js';
import { fastestOrder } from './fastest-order.js';
import type { RankedCandidate } from './ranking.js';

const figures = (
  ttfbMs: number | null,
  lastAt: number | null = ttfbMs === null ? null : 1,
): LatencyFigures => ({
  ttfbMs,
  ttfbP50Ms: ttfbMs,
  ttfbP95Ms: ttfbMs,
  tokensPerSec: null,
  samples: ttfbMs === null ? 0 : 1,
  lastAt,
});

type Fact = Omit<RankedCandidate, 'key' | 'role'> & {
  role?: RankedCandidate['role'];
  figures: LatencyFigures;
};

function order(facts: Record<string, Fact>, explore = false) {
  const candidates = Object.entries(facts).map(([key, { role, lowered }]) => ({
    key,
    role: role ?? 'normal',
    lowered,
  }));
  return fastestOrder(candidates, (key) => (facts[key] as Fact).figures, explore).map((c) => c.key);
}

test('healthy models go by time to first byte; never measured ones follow in the user’s order', () => {
  const keys = order({
    'a/slow': { figures: figures(3000) },
    'b/new': { figures: figures(null) },
    'c/fast': { figures: figures(400) },
    'd/mid': { figures: figures(1200) },
    'e/new': { figures: figures(null) },
  });
  assert.deepEqual(keys, ['c/fast', 'd/mid', 'a/slow', 'b/new', 'e/new']);
});

test('figures within the tie margin keep the user’s order', () => {
  const keys = order({
    'a/one': { figures: figures(450) },
    'b/two': { figures: figures(410) },
    'c/three': { figures: figures(120) },
  });
  assert.deepEqual(keys, ['c/three', 'a/one', 'b/two']);
});

test('trials and models ranked behind (DEGRADED, near a budget) stay behind the healthy ones, in their order', () => {
  const keys = order({
    'a/trial': { figures: figures(10), role: 'trial' },
    'b/degraded': { lowered: true, figures: figures(20) },
    'c/slow': { figures: figures(5000) },
  });
  assert.deepEqual(keys, ['c/slow', 'a/trial', 'b/degraded']);
});

test('exploration puts the model measured longest ago first (never measured counts as oldest)', () => {
  const facts = {
    'a/fast': { figures: figures(100, 500) },
    'b/slow': { figures: figures(900, 200) },
    'c/mid': { figures: figures(500, 300) },
  };
  assert.deepEqual(order(facts, true), ['b/slow', 'a/fast', 'c/mid']);
  assert.deepEqual(order({ ...facts, 'd/new': { figures: figures(null) } }, true), [
    'd/new',
    'a/fast',
    'c/mid',
    'b/slow',
  ]);
  assert.deepEqual(order({ 'a/only': { figures: figures(100) } }, true), ['a/only']);
});
