import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UNKNOWN_FIT, type ModelFit } from '../../catalogue/model-fit.js';
import type { RequestNeeds } from '../../faces/request-size.js';
import type { LearnedFit } from '../../state/fit-book.js';
import { fitVerdict } from './fit-check.js';

const needs = (
  input: number,
  output: number | null = null,
  more: Partial<RequestNeeds> = {},
): RequestNeeds => ({
  input,
  output,
  tools: false,
  images: false,
  ...more,
});
const model = (more: Partial<ModelFit>, tpm: number | null = null, learned?: LearnedFit) => ({
  fit: { ...UNKNOWN_FIT, ...more },
  tpm,
  learned,
});

test('a window skips a request whose input and least output do not fit, and clamps an output that does not', () => {
  const window = model({ contextWindow: 65_000 });
  assert.deepEqual(fitVerdict(needs(70_000), window), {
    fits: false,
    reason: 'context_window',
    limit: 65_000,
  });
  // 62k of input leaves 3k: less than the 4,096 of output a request must keep.
  assert.deepEqual(fitVerdict(needs(62_000, 32_000), window), {
    fits: false,
    reason: 'context_window',
    limit: 65_000,
  });
  // Clamped to what the window leaves after the input and a quarter more for the estimate's error.
  assert.deepEqual(fitVerdict(needs(40_000, 32_000), window), { fits: true, output: 15_000, size: 55_000 });
  // Never below the output a request must keep, when that still fits.
  assert.deepEqual(fitVerdict(needs(58_000, 32_000), window), { fits: true, output: 4096, size: 62_096 });
  assert.deepEqual(fitVerdict(needs(60_000, 1000), window), { fits: true, output: null, size: 61_000 });
  assert.deepEqual(fitVerdict(needs(64_000), window), { fits: true, output: null, size: 64_000 });
});

test('the model’s own output limit clamps first; a whole TPM limit skips as over_tpm', () => {
  assert.deepEqual(fitVerdict(needs(1000, 32_000), model({ maxOutputTokens: 8192 })), {
    fits: true,
    output: 8192,
    size: 9192,
  });
  assert.deepEqual(fitVerdict(needs(7000), model({ contextWindow: 131_000 }, 6000)), {
    fits: false,
    reason: 'over_tpm',
    limit: 6000,
  });
});

test('a learnt ceiling skips the size it refused and more, by its kind; features refused skip their requests', () => {
  const ceiling = { tokens: 14_999, kind: 'context' as const, source: 'refusal' as const, at: 0 };
  const learned = model({}, null, { ceiling });
  assert.deepEqual(fitVerdict(needs(15_000), learned), {
    fits: false,
    reason: 'context_window',
    limit: 14_999,
  });
  assert.deepEqual(fitVerdict(needs(14_000), learned), { fits: true, output: null, size: 14_000 });
  const tpm = model({}, null, { ceiling: { ...ceiling, kind: 'tpm' } });
  assert.deepEqual(fitVerdict(needs(15_000), tpm), { fits: false, reason: 'over_tpm', limit: 14_999 });
  const noTools = model({}, null, { noToolsAt: 1 });
  assert.deepEqual(fitVerdict(needs(10, null, { tools: true }), noTools), {
    fits: false,
    reason: 'no_tool_support',
    limit: null,
  });
  assert.equal(fitVerdict(needs(10), noTools).fits, true);
  assert.deepEqual(fitVerdict(needs(10, null, { images: true }), model({ images: false })), {
    fits: false,
    reason: 'no_image_support',
    limit: null,
  });
});
