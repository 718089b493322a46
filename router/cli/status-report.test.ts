/**
 * `status`'s report of a daemon it found: the exit code follows whether the next agent request has a model
 * to go to, whatever the colour, and a model that is out says when the first is back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LiveDaemon } from './cli-control.js';
import { clockTime, STATUS_EXIT, statusReport, type StatusState } from './cli-status.js';

const DAEMON: LiveDaemon = {
  url: 'http://127.0.0.1:1',
  pid: 42,
  version: '0.0.0',
  uptimeMs: 5000,
  demo: false,
  token: null,
};
const BACK = Date.UTC(2026, 0, 1, 10, 0, 0);

function state(health: Partial<StatusState['health']>, paused = false): StatusState {
  return {
    paused,
    health: { level: 'green', title: 'routing', reason: 'next request goes to a/m', next: 'a/m', ...health },
  };
}

test('amber with no next model (every model quota-paused) exits 4, saying when the first is back', () => {
  const report = statusReport(
    DAEMON,
    state({
      level: 'amber',
      title: 'quota-paused',
      reason: 'every usable model is quota-paused (2 quota-paused): agents get 429 until a pause ends',
      next: null,
      backAt: BACK,
    }),
  );
  assert.equal(report.code, STATUS_EXIT.notRouting);
  assert.equal(
    report.lines[1],
    `health: amber · quota-paused — every usable model is quota-paused (2 quota-paused): agents get 429 until a pause ends · first back at ${clockTime(BACK)} · next model: none · paused: no`,
  );
});

test('amber with a next model exits 0; green exits 0 and names no time; paused exits 5; red exits 4', () => {
  const amber = { level: 'amber', title: 'on trial', reason: 'next request goes to a trial of a/m' } as const;
  assert.equal(statusReport(DAEMON, state({ ...amber, backAt: BACK })).code, STATUS_EXIT.routing);
  const green = statusReport(DAEMON, state({ backAt: BACK }));
  assert.equal(green.code, STATUS_EXIT.routing);
  assert.doesNotMatch(green.lines[1] ?? '', /first back/);
  assert.equal(statusReport(DAEMON, state({ next: null }, true)).code, STATUS_EXIT.paused);
  assert.equal(
    statusReport(DAEMON, state({ level: 'red', title: 'requests failing' })).code,
    STATUS_EXIT.notRouting,
  );
});

test('a verdict that names the next model already is not followed by it again; one that does not is', () => {
  const amber = {
    level: 'amber',
    title: 'some models out',
    reason: '2 of 3 models out (2 OPEN); next request goes to a/m',
    backAt: BACK,
  } as const;
  assert.equal(
    statusReport(DAEMON, state(amber)).lines[1],
    `health: amber · some models out — 2 of 3 models out (2 OPEN); next request goes to a/m · first back at ${clockTime(BACK)} · paused: no`,
  );
  const failing = { level: 'red', title: 'requests failing', reason: 'the last 6 requests failed' } as const;
  assert.equal(
    statusReport(DAEMON, state(failing)).lines[1],
    'health: red · requests failing — the last 6 requests failed · next model: a/m · paused: no',
  );
});

test('clockTime is the local time of day, to the second', () => {
  const at = new Date(2026, 0, 1, 9, 5, 7).getTime();
  assert.equal(clockTime(at), '09:05:07');
});
