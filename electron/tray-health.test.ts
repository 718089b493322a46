import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeTrayView, describeLast, TOOLTIP_MAX } from './tray-health.js';
import { attempt, entry, model, snapshot } from './testing/fixtures.js';

const NOW = 1_000_000;
const formatTime = (ms: number): string => `t+${(ms - NOW) / 1000}s`;

test('green when every model of the active set is ready; models outside the set do not count', () => {
  const state = snapshot([model('a/x'), model('b/y'), model('c/z', { inActiveSet: false, state: 'OPEN' })]);
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
  assert.equal(view.colour, 'green');
  assert.equal(view.tooltip, 'fcm-router — 2/2 models ready');
  assert.equal(view.statusLine, 'All 2 models ready');
  assert.deepEqual(
    view.menuModels.map((m) => m.key),
    ['a/x', 'b/y'],
  );
});

test('amber when some are degraded, open, quota-paused or key-invalid but one is routable', () => {
  for (const sick of [
    { state: 'DEGRADED' as const },
    { state: 'OPEN' as const, openUntil: NOW + 60_000 },
    { quotaPausedUntil: NOW + 60_000 },
    { authBlocked: true },
    { missingKey: true },
  ]) {
    const state = snapshot([model('a/x', sick), model('b/y')]);
    const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
    assert.equal(view.colour, 'amber', JSON.stringify(sick));
    assert.equal(view.statusLine, '1 of 2 models ready');
  }
});

test('a degraded-only set is amber (routable), an all-open set is red', () => {
  const degraded = snapshot([model('a/x', { state: 'DEGRADED' })]);
  assert.equal(computeTrayView({ kind: 'running', state: degraded, lastEntry: null }, NOW).colour, 'amber');
  const open = snapshot([
    model('a/x', { state: 'OPEN', openUntil: NOW + 1000 }),
    model('b/y', { authBlocked: true }),
  ]);
  const view = computeTrayView({ kind: 'running', state: open, lastEntry: null }, NOW);
  assert.equal(view.colour, 'red');
  assert.equal(view.statusLine, 'Nothing routable: 2 of 2 models unavailable');
});

test('disabled providers are left out of the count; an empty set is red', () => {
  const state = snapshot([model('a/x'), model('off/y', { providerEnabled: false })]);
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
  assert.equal(view.colour, 'green');
  assert.equal(view.tooltip, 'fcm-router — 1/1 models ready');
  assert.equal(view.menuModels[1]?.label, 'off/y — provider off');

  const empty = computeTrayView({ kind: 'running', state: snapshot([]), lastEntry: null }, NOW);
  assert.equal(empty.colour, 'red');
  assert.equal(empty.statusLine, 'No usable model in set "default"');
});

test('grey while starting or paused, red when stopped or the port is taken', () => {
  assert.equal(computeTrayView({ kind: 'starting' }, NOW).colour, 'grey');
  const paused = computeTrayView(
    { kind: 'running', state: snapshot([model('a/x')], { paused: true }), lastEntry: null },
    NOW,
  );
  assert.equal(paused.colour, 'grey');
  assert.equal(paused.statusLine, 'Routing paused');
  const stopped = computeTrayView({ kind: 'stopped', reason: 'crashed' }, NOW);
  assert.equal(stopped.colour, 'red');
  assert.equal(stopped.statusLine, 'Router stopped (crashed)');
  const taken = computeTrayView({ kind: 'port-taken', port: 19280, nextFreePort: 19281 }, NOW);
  assert.equal(taken.colour, 'red');
  assert.equal(taken.statusLine, 'Port 19280 is in use by another program');
  assert.equal(taken.tooltip, 'fcm-router — port 19280 is in use by another program');
});

test('the tooltip names the last request and its failovers, as in the README', () => {
  const models = Array.from({ length: 12 }, (_, i) => model(`p/m${i}`, i < 3 ? { state: 'DEGRADED' } : {}));
  const last = entry({
    servedModel: 'groq/llama-3.3-70b',
    attempts: [attempt('demo-flaky/empty-200', 'empty_choices'), attempt('groq/llama-3.3-70b', null)],
  });
  const view = computeTrayView({ kind: 'running', state: snapshot(models), lastEntry: last }, NOW);
  assert.equal(view.tooltip, 'fcm-router — 9/12 models ready · last: groq/llama-3.3-70b (1 failover)');
});

test('describeLast covers every outcome without request content', () => {
  assert.equal(describeLast(entry({ servedModel: 'a/x', attempts: [attempt('a/x', null)] })), 'a/x');
  assert.equal(
    describeLast(
      entry({
        outcome: 'partial',
        servedModel: 'a/x',
        attempts: [attempt('b/y', 'timeout', null), attempt('c/z', 'rate_limit', 429), attempt('a/x', null)],
      }),
    ),
    'a/x (2 failovers, cut short)',
  );
  assert.equal(
    describeLast(entry({ outcome: 'all_failed', attempts: [attempt('a/x', 'server_error', 500)] })),
    'failed after 1 attempt',
  );
  assert.equal(describeLast(entry({ outcome: 'no_candidates' })), 'no model available');
  assert.equal(describeLast(entry({ outcome: 'client_aborted' })), 'cancelled by the client');
  assert.equal(describeLast(entry({ outcome: 'rejected', clientStatus: 413 })), 'rejected (HTTP 413)');
});

test('menu lines carry a glyph per state and the time a pause ends; the rest is counted', () => {
  const state = snapshot([
    model('a/ready'),
    model('a/deg', { state: 'DEGRADED' }),
    model('a/trial', { state: 'HALF_OPEN' }),
    model('a/open', { state: 'OPEN', openUntil: NOW + 45_000 }),
    model('a/quota', { quotaPausedUntil: NOW + 120_000 }),
    model('b/key', { authBlocked: true }),
    model('c/nokey', { missingKey: true }),
  ]);
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW, {
    maxMenuModels: 6,
    formatTime,
  });
  assert.deepEqual(
    view.menuModels.map((m) => `${m.glyph} ${m.label}`),
    [
      '● a/ready — ready',
      '◐ a/deg — degraded',
      '◔ a/trial — on trial',
      '○ a/open — open until t+45s',
      '◌ a/quota — quota paused until t+120s',
      '✕ b/key — key refused',
    ],
  );
  assert.equal(view.moreModels, 1);
});

test('tooltips never exceed the Windows limit', () => {
  const long = entry({ servedModel: `p/${'x'.repeat(200)}`, attempts: [attempt('p/x', null)] });
  const view = computeTrayView({ kind: 'running', state: snapshot([model('a/x')]), lastEntry: long }, NOW);
  assert.equal(view.tooltip.length, TOOLTIP_MAX);
  assert.ok(view.tooltip.endsWith('…'));
});
