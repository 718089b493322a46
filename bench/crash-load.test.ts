import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missingFromSnapshot } from './crash-load.js';

// Requests r0…r9 answered at 100, 110, …, 190 ms; a snapshot taken at 150 ms.
const answered = new Map(Array.from({ length: 10 }, (_, i) => [`r${i}`, 100 + 10 * i] as const));
const limits = { inFlight: 2, retained: 500 };

test('a snapshot must hold every request answered before it, bar the newest in flight', () => {
  const whole = { savedAt: 150, ids: ['r0', 'r1', 'r2'] };
  assert.deepEqual(missingFromSnapshot(answered, whole, limits), [], 'r3 and r4 may still be recording');
  const torn = { savedAt: 150, ids: ['r0', 'r2'] };
  assert.deepEqual(missingFromSnapshot(answered, torn, limits), ['r1']);
});

test('answers read after the snapshot, or at its very millisecond, are not expected in it', () => {
  assert.deepEqual(missingFromSnapshot(answered, { savedAt: 100, ids: [] }, limits), []);
  assert.deepEqual(missingFromSnapshot(answered, { savedAt: 120, ids: [] }, { inFlight: 0, retained: 500 }), [
    'r1',
    'r0',
  ]);
});

test('requests older than the ring retains may be gone', () => {
  const ring = { savedAt: 1000, ids: ['r6', 'r7', 'r8', 'r9'] };
  assert.deepEqual(missingFromSnapshot(answered, ring, { inFlight: 0, retained: 4 }), []);
  assert.deepEqual(missingFromSnapshot(answered, ring, { inFlight: 0, retained: 5 }), ['r5']);
});

test('answers read within the grace before the snapshot are not held against it', () => {
  const snapshot = { savedAt: 150, ids: ['r0'] };
  assert.deepEqual(missingFromSnapshot(answered, snapshot, { inFlight: 0, retained: 500 }), [
    'r4',
    'r3',
    'r2',
    'r1',
  ]);
  assert.deepEqual(missingFromSnapshot(answered, snapshot, { inFlight: 0, retained: 500, graceMs: 25 }), [
    'r2',
    'r1',
  ]);
});

test('the grace narrows what is checked, not how the ring is counted', () => {
  // The ring keeps r7…r9 (3 of them); answers r7 and r8 fall within the grace: nothing older may be checked.
  const ring = { savedAt: 185, ids: ['r7', 'r8'] };
  assert.deepEqual(missingFromSnapshot(answered, ring, { inFlight: 0, retained: 2, graceMs: 20 }), []);
});
