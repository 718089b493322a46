import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RingBuffer } from './ring-buffer.js';

describe('RingBuffer', () => {
  it('keeps items in order below capacity', () => {
    const ring = new RingBuffer<number>(4);
    [1, 2, 3].forEach((n) => ring.push(n));
    assert.equal(ring.size, 3);
    assert.deepEqual(ring.toArray(), [1, 2, 3]);
    assert.deepEqual(ring.newest(2), [3, 2]);
  });

  it('overwrites the oldest past capacity, however often it wraps', () => {
    const ring = new RingBuffer<number>(3);
    for (let n = 1; n <= 11; n += 1) ring.push(n);
    assert.equal(ring.size, 3);
    assert.deepEqual(ring.toArray(), [9, 10, 11]);
    assert.deepEqual(ring.newest(10), [11, 10, 9]);
  });

  it('clamps newest() and starts over after clear()', () => {
    const ring = new RingBuffer<string>(2);
    ring.push('a');
    assert.deepEqual(ring.newest(-1), []);
    assert.deepEqual(ring.newest(Number.NaN), []);
    ring.clear();
    assert.equal(ring.size, 0);
    ring.push('b');
    assert.deepEqual(ring.toArray(), ['b']);
  });

  it('has a capacity of at least one', () => {
    const ring = new RingBuffer<number>(0);
    ring.push(1);
    ring.push(2);
    assert.deepEqual(ring.toArray(), [2]);
  });
});
