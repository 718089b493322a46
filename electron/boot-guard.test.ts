import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootWhenReady, describeBootFailure, endFailedBoot, type BootFailureSteps } from './boot-guard.js';

function recordingSteps(overrides: Partial<BootFailureSteps> = {}): {
  steps: BootFailureSteps;
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    steps: {
      log: (line) => calls.push(`log ${line.split('\n')[0]}`),
      showError: (title, content) => calls.push(`dialog ${title}: ${content.split('\n')[0]}`),
      releaseLock: () => calls.push('release'),
      exit: (code) => calls.push(`exit ${code}`),
      ...overrides,
    },
  };
}

test('a throw inside boot reaches the failure handler (not only a failed ready)', async () => {
  const failures: unknown[] = [];
  const error = new Error('new Tray failed');
  await bootWhenReady(
    Promise.resolve(),
    async () => {
      throw error;
    },
    (e) => failures.push(e),
  );
  assert.deepEqual(failures, [error]);
});

test('a failed ready reaches the failure handler and boot never runs', async () => {
  const failures: unknown[] = [];
  let booted = false;
  await bootWhenReady(
    Promise.reject(new Error('no display')),
    async () => {
      booted = true;
    },
    (e) => failures.push(e),
  );
  assert.equal(booted, false);
  assert.equal(failures.length, 1);
});

test('a boot that succeeds calls no failure handler', async () => {
  let failed = false;
  await bootWhenReady(
    Promise.resolve(),
    async () => undefined,
    () => (failed = true),
  );
  assert.equal(failed, false);
});

test('a failed boot is logged, shown, releases the lock, then exits 1', () => {
  const { steps, calls } = recordingSteps();
  endFailedBoot(new Error('Tray could not be created'), steps);
  assert.deepEqual(calls, [
    'log fcm-router: the desktop app could not start: Error: Tray could not be created',
    'dialog fcm-router could not start: Tray could not be created',
    'release',
    'exit 1',
  ]);
});

test('the lock is released and the app exits even when the dialog cannot be shown', () => {
  const { steps, calls } = recordingSteps({
    showError: () => {
      throw new Error('no display');
    },
  });
  endFailedBoot('boom', steps);
  assert.deepEqual(calls.slice(-2), ['release', 'exit 1']);
});

test('the exit happens even when releasing the lock throws', () => {
  const calls: string[] = [];
  const { steps } = recordingSteps({
    releaseLock: () => {
      throw new Error('already released');
    },
    exit: (code) => calls.push(`exit ${code}`),
  });
  assert.throws(() => endFailedBoot(new Error('x'), steps), /already released/);
  assert.deepEqual(calls, ['exit 1']);
});

test('a thrown non-error is described by its text', () => {
  const failure = describeBootFailure('plain string');
  assert.equal(failure.logLine, 'fcm-router: the desktop app could not start: plain string');
  assert.match(failure.content, /^plain string\n/);
});
