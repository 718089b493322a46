import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { deferred } from '../test-support/deferred.js';
import { recordingLogger } from '../test-support/state-test-helpers.js';
import { FAULT_EXIT_CODE, installProcessErrorPolicy } from './process-error-policy.js';

function setup() {
  const source = new EventEmitter();
  const logger = recordingLogger();
  const flushed = deferred<void>();
  const exits: number[] = [];
  let flushes = 0;
  installProcessErrorPolicy({
    source,
    logger,
    flush: () => {
      flushes += 1;
      return flushed.promise;
    },
    exit: (code) => exits.push(code),
  });
  return { source, logger, flushed, exits, flushes: () => flushes };
}

test('an uncaught exception is logged without its message, state is flushed, then the daemon exits 70', async () => {
  const { source, logger, flushed, exits, flushes } = setup();
  source.emit('uncaughtException', new RangeError('quoting PROMPT-123'));
  assert.equal(flushes(), 1);
  assert.deepEqual(exits, [], 'no exit before the state is saved');
  flushed.resolve();
  await flushed.promise;
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(exits, [FAULT_EXIT_CODE]);
  assert.match(logger.lines[0] ?? '', /^error uncaught exception: RangeError \| at /);
  assert.ok(!logger.lines.join('\n').includes('PROMPT-123'));
});

test('an unhandled rejection takes the same way; a second fault while flushing exits at once', () => {
  const { source, exits, flushes, logger } = setup();
  source.emit('unhandledRejection', new Error('first'));
  source.emit('uncaughtException', 'not even an error');
  assert.equal(flushes(), 1);
  assert.deepEqual(exits, [FAULT_EXIT_CODE]);
  assert.match(logger.lines.join('\n'), /unhandled rejection: Error/);
  assert.match(logger.lines.join('\n'), /non-error value thrown \(string\)/);
});
