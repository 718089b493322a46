import { describe, expect, test } from 'vitest';
import { rebaseEdits, sameJson } from './rebase-edits.js';

describe('rebaseEdits', () => {
  const base = { router: { failover: { maxAttempts: 6, requestTimeoutMs: 5000 } }, sets: { a: ['x/1'] } };

  test('the user’s edit is kept and the file’s other changes come in', () => {
    const mine = { ...base, router: { failover: { maxAttempts: 9, requestTimeoutMs: 5000 } } };
    const theirs = { ...base, router: { failover: { maxAttempts: 6, requestTimeoutMs: 8000 } } };
    expect(rebaseEdits(base, mine, theirs)).toEqual({
      value: { ...base, router: { failover: { maxAttempts: 9, requestTimeoutMs: 8000 } } },
      conflicts: [],
    });
  });

  test('a value both changed keeps the user’s, and names its path', () => {
    const mine = { ...base, router: { failover: { maxAttempts: 9, requestTimeoutMs: 5000 } } };
    const theirs = { ...base, router: { failover: { maxAttempts: 3, requestTimeoutMs: 5000 } } };
    const { value, conflicts } = rebaseEdits(base, mine, theirs);
    expect(value.router.failover.maxAttempts).toBe(9);
    expect(conflicts).toEqual(['router.failover.maxAttempts']);
  });

  test('the same change on both sides is no conflict; arrays are one value', () => {
    const mine = { ...base, sets: { a: ['x/1', 'y/2'] } };
    expect(rebaseEdits(base, mine, mine)).toEqual({ value: mine, conflicts: [] });
    const theirs = { ...base, sets: { a: ['z/3'] } };
    expect(rebaseEdits(base, mine, theirs).conflicts).toEqual(['sets.a']);
  });

  test('keys added or removed on either side stay so', () => {
    const mine: Record<string, unknown> = { ...base, activeSet: 'a' };
    const theirs: Record<string, unknown> = { router: base.router };
    expect(rebaseEdits<Record<string, unknown>>(base, mine, theirs)).toEqual({
      value: { router: base.router, activeSet: 'a' },
      conflicts: [],
    });
  });

  test('flat form values merge field by field', () => {
    const fields = { a: '1', b: '2' };
    expect(rebaseEdits(fields, { a: '5', b: '2' }, { a: '1', b: '7' })).toEqual({
      value: { a: '5', b: '7' },
      conflicts: [],
    });
  });
});

test('sameJson ignores key order and nothing else', () => {
  expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
  expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  expect(sameJson([1, 2], [2, 1])).toBe(false);
  expect(sameJson(null, {})).toBe(false);
});
