import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SAME_INTERRUPT_MS, stopSignalMeaning, stoppingLine } from './stop-signals.js';
import { TEST_EPOCH } from '../test-support/test-clock.js';

test('the first stop signal stops the daemon in order', () => {
  assert.equal(stopSignalMeaning(null, TEST_EPOCH), 'stop');
});

test('a signal within a second of the first is the same interrupt (npm and bash each pass one Ctrl-C on)', () => {
  assert.equal(stopSignalMeaning(TEST_EPOCH, TEST_EPOCH), 'same_interrupt');
  assert.equal(stopSignalMeaning(TEST_EPOCH, TEST_EPOCH + SAME_INTERRUPT_MS - 1), 'same_interrupt');
});

test('a signal once the second has passed exits at once', () => {
  assert.equal(stopSignalMeaning(TEST_EPOCH, TEST_EPOCH + SAME_INTERRUPT_MS), 'exit_now');
  assert.equal(stopSignalMeaning(TEST_EPOCH, TEST_EPOCH + 60_000), 'exit_now');
});

test('the line of a Ctrl-C says how to exit now; a SIGTERM or SIGHUP has no key to press', () => {
  assert.equal(
    stoppingLine('SIGINT'),
    'SIGINT: finishing in-flight requests and saving state (press Ctrl-C again to exit now)',
  );
  assert.equal(stoppingLine('SIGTERM'), 'SIGTERM: finishing in-flight requests and saving state');
  assert.equal(stoppingLine('SIGHUP'), 'SIGHUP: finishing in-flight requests and saving state');
});
