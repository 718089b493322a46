import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
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

test('a stream that fails is written no more, and a failed log output is said once on the other', async () => {
  const err: string[] = [];
  let attempts = 0;
  // A real stream whose sink refuses every write, as a pipe whose reader is gone does (EPIPE).
  const out = new Writable({
    write(_chunk, _encoding, done) {
      attempts += 1;
      done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  });
  const logger = createBufferedLogger(out, { write: (t: string) => err.push(t) }, { time: at() });
  logger.info('one');
  logger.flush();
  await new Promise((resolve) => out.on('close', resolve));
  logger.info('two');
  logger.flush();
  logger.warn('still said');
  assert.equal(attempts, 1, 'nothing more is written to the failed stream');
  assert.deepEqual(err, [
    '09:08:07 warn: the log output failed (EPIPE): request lines are no longer written; routing goes on\n',
    '09:08:07 warn: still said\n',
  ]);
});

test('a write that throws is taken as a failed stream, not thrown at the caller', () => {
  const logger = createBufferedLogger(
    { write: () => undefined },
    {
      write: () => {
        throw new Error('EBADF');
      },
    },
    { time: at() },
  );
  logger.warn('one');
  logger.error('two');
  logger.info('three');
  logger.flush();
});
