import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBufferedLogger } from './cli-logger.js';
import { TestClock } from '../test-support/test-clock.js';

const at = () => new TestClock(new Date(2026, 0, 1, 9, 8, 7).getTime());

test('info lines are gathered into one write; warnings flush them first, in order', () => {
  const out: string[] = [];
  const err: string[] = [];
  const logger = createBufferedLogger(
    { write: (t: string) => out.push(t) },
    { write: (t: string) => err.push(t) },
    { intervalMs: 10_000, time: at() },
  );
  logger.info('one');
  logger.info('two');
  assert.deepEqual(out, []);
  logger.warn('careful');
  assert.deepEqual(out, ['09:08:07 one\n09:08:07 two\n']);
  assert.deepEqual(err, ['09:08:07 warn: careful\n']);
  logger.info('three');
  logger.flush();
  assert.deepEqual(out.at(-1), '09:08:07 three\n');
});

test('buffered lines are written after the interval without an explicit flush', () => {
  const out: string[] = [];
  const time = at();
  const logger = createBufferedLogger(
    { write: (t: string) => out.push(t) },
    { write: () => undefined },
    { intervalMs: 5, time },
  );
  logger.info('later');
  time.advance(4);
  assert.deepEqual(out, [], 'not before the interval');
  time.advance(1);
  assert.deepEqual(out, ['09:08:07 later\n']);
});

test('a large backlog is written without waiting for the timer', () => {
  const out: string[] = [];
  const logger = createBufferedLogger(
    { write: (t: string) => out.push(t) },
    { write: () => undefined },
    { intervalMs: 10_000, time: at() },
  );
  const line = 'x'.repeat(1000);
  for (let i = 0; i < 40; i += 1) logger.info(line);
  assert.ok(out.length >= 1, 'flushed once 32 KB were waiting');
  logger.flush();
  assert.equal(out.join('').split('\n').filter(Boolean).length, 40);
});
