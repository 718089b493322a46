import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LatencyFigures } from '../../state/model-stats.js';
import { fastestOrder, type SpeedFacts } from './fastest-order.js';
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

function order(facts: Record<string, SpeedFacts & { role?: RankedCandidate['role'] }>, explore = false) {
  const candidates = Object.entries(facts).map(([key, fact]) => ({ key, role: fact.role ?? 'normal' }));
  return fastestOrder(candidates, (key) => facts[key] as SpeedFacts, explore).map((c) => c.key);
}

test('healthy models go by time to first byte; never measured ones follow in the user’s order', () => {
  const keys = order({
    'a/slow': { healthy: true, figures: figures(3000) },
    'b/new': { healthy: true, figures: figures(null) },
    'c/fast': { healthy: true, figures: figures(400) },
    'd/mid': { healthy: true, figures: figures(1200) },
    'e/new': { healthy: true, figures: figures(null) },
  });
  assert.deepEqual(keys, ['c/fast', 'd/mid', 'a/slow', 'b/new', 'e/new']);
});

test('figures within the tie margin keep the user’s order', () => {
  const keys = order({
    'a/one': { healthy: true, figures: figures(450) },
    'b/two': { healthy: true, figures: figures(410) },
    'c/three': { healthy: true, figures: figures(120) },
  });
  assert.deepEqual(keys, ['c/three', 'a/one', 'b/two']);
});

test('trials and DEGRADED models stay behind the healthy ones, in their order', () => {
  const keys = order({
    'a/trial': { healthy: true, figures: figures(10), role: 'trial' },
    'b/degraded': { healthy: false, figures: figures(20) },
    'c/slow': { healthy: true, figures: figures(5000) },
  });
  assert.deepEqual(keys, ['c/slow', 'a/trial', 'b/degraded']);
});

test('exploration puts the model measured longest ago first (never measured counts as oldest)', () => {
  const facts = {
    'a/fast': { healthy: true, figures: figures(100, 500) },
    'b/slow': { healthy: true, figures: figures(900, 200) },
    'c/mid': { healthy: true, figures: figures(500, 300) },
  };
  assert.deepEqual(order(facts, true), ['b/slow', 'a/fast', 'c/mid']);
  assert.deepEqual(order({ ...facts, 'd/new': { healthy: true, figures: figures(null) } }, true), [
    'd/new',
    'a/fast',
    'c/mid',
    'b/slow',
  ]);
  assert.deepEqual(order({ 'a/only': { healthy: true, figures: figures(100) } }, true), ['a/only']);
});
