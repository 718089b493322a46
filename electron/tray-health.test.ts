import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeTrayView, describeLast, TOOLTIP_MAX } from './tray-health.js';
import { attempt, entry, model, snapshot } from './testing/fixtures.js';

const NOW = 1_000_000;
const formatTime = (ms: number): string => `t+${(ms - NOW) / 1000}s`;

test('green when the next request goes to a CLOSED model and none is out; other sets do not count', () => {
  const state = snapshot([model('a/x'), model('b/y'), model('c/z', { inActiveSet: false, state: 'OPEN' })]);
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
  assert.equal(view.colour, 'green');
  assert.equal(view.tooltip, 'fcm-router — next request goes to a/x');
  assert.equal(view.statusLine, 'Next request goes to a/x');
  assert.deepEqual(
    view.menuModels.map((m) => m.key),
    ['a/x', 'b/y'],
  );
});

test('amber when a model is out or only a degraded one is left, with the words of the verdict', () => {
  for (const sick of [
    { state: 'OPEN' as const, openUntil: NOW + 60_000 },
    { quotaPausedUntil: NOW + 60_000 },
    { authBlocked: true },
    { missingKey: true },
  ]) {
    const state = snapshot([model('b/y'), model('a/x', sick)]);
    const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
    assert.equal(view.colour, 'amber', JSON.stringify(sick));
    assert.match(view.statusLine, /^1 of 2 models out \(.+\).*; next request goes to b\/y/);
  }
  const degraded = snapshot([model('a/x', { state: 'DEGRADED' })]);
  const view = computeTrayView({ kind: 'running', state: degraded, lastEntry: null }, NOW);
  assert.equal(view.colour, 'amber');
  assert.equal(view.statusLine, 'Next request goes to DEGRADED a/x');
});

test('red when nothing is routable, saying when the first model comes back', () => {
  const open = snapshot([
    model('a/x', { state: 'OPEN', openUntil: NOW + 45_000 }),
    model('b/y', { authBlocked: true }),
  ]);
  const view = computeTrayView({ kind: 'running', state: open, lastEntry: null }, NOW, { formatTime });
  assert.equal(view.colour, 'red');
  assert.equal(
    view.statusLine,
    'No model can take a request (1 OPEN, 1 key refused): replace the refused keys in Providers · first back at t+45s',
  );
  const keyless = snapshot([model('a/x', { missingKey: true })]);
  const noKey = computeTrayView({ kind: 'running', state: keyless, lastEntry: null }, NOW);
  assert.equal(noKey.colour, 'red');
  assert.equal(noKey.tooltip, 'fcm-router — no model has a key: add one in Providers');
});

test('the verdict is taken at the tray’s time: a cooldown that has ended is a trial, not an outage', () => {
  const state = snapshot([model('a/x', { state: 'OPEN', openUntil: NOW - 1 })], {}, NOW - 10_000);
  assert.equal(state.health.level, 'red');
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
  assert.equal(view.colour, 'amber');
  assert.equal(view.statusLine, 'Next request goes to a trial of a/x');
});

test('disabled providers are left out of the count; an empty set is red', () => {
  const state = snapshot([model('a/x'), model('off/y', { providerEnabled: false })]);
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
  assert.equal(view.colour, 'green');
  assert.equal(view.menuModels[1]?.label, 'off/y — provider off');

  const empty = computeTrayView({ kind: 'running', state: snapshot([]), lastEntry: null }, NOW);
  assert.equal(empty.colour, 'red');
  assert.equal(empty.statusLine, 'Set "default" is empty: add models in Models');
});

test('a model the router cannot reach is labelled for why, not as a provider switched off', () => {
  const state = snapshot([
    model('a/x'),
    model('ghost/y', { providerEnabled: false, blockedBy: 'unknown_model' }),
    model('a/gone', { blockedBy: 'model_vanished' }),
    model('nourl/z', { blockedBy: 'provider_unresolvable' }),
  ]);
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
  assert.deepEqual(
    view.menuModels.slice(1).map((m) => `${m.glyph} ${m.label}`),
    [
      '✕ ghost/y — provider unknown',
      '✕ a/gone — no longer listed by its provider',
      '✕ nourl/z — provider has no usable URL',
    ],
  );
  assert.equal(view.colour, 'amber');
  assert.match(view.statusLine, /^3 of 4 models out \(3 unknown or removed\)/);
});

test('a DEGRADED model whose trial is due is on trial in the menu, as the verdict says', () => {
  const state = snapshot([model('a/x', { state: 'DEGRADED', trialDueAt: NOW - 1 }), model('b/y')]);
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
  assert.equal(view.statusLine, 'Next request goes to a trial of a/x; 1 CLOSED behind it');
  assert.equal(`${view.menuModels[0]?.glyph} ${view.menuModels[0]?.label}`, '◔ a/x — on trial');
  const waiting = snapshot([model('b/y'), model('a/x', { state: 'DEGRADED', trialDueAt: NOW + 1 })]);
  const before = computeTrayView({ kind: 'running', state: waiting, lastEntry: null }, NOW);
  assert.equal(`${before.menuModels[1]?.glyph} ${before.menuModels[1]?.label}`, '◐ a/x — degraded');
});

test('grey while starting; red when paused, stopped or the port is taken', () => {
  assert.equal(computeTrayView({ kind: 'starting' }, NOW).colour, 'grey');
  const paused = computeTrayView(
    { kind: 'running', state: snapshot([model('a/x')], { paused: true }), lastEntry: null },
    NOW,
  );
  assert.equal(paused.colour, 'red');
  assert.equal(paused.statusLine, 'Routing is paused, agents get 503: resume it');
  const stopped = computeTrayView({ kind: 'stopped', reason: 'crashed' }, NOW);
  assert.equal(stopped.colour, 'red');
  assert.equal(stopped.statusLine, 'Router stopped (crashed)');
  const taken = computeTrayView({ kind: 'port-taken', port: 19280, nextFreePort: 19281 }, NOW);
  assert.equal(taken.colour, 'red');
  assert.equal(taken.statusLine, 'Port 19280 is in use by another program');
  assert.equal(taken.tooltip, 'fcm-router — port 19280 is in use by another program');
  const router = { kind: 'port-taken', port: 19280, nextFreePort: 19281, otherRouter: true } as const;
  assert.equal(computeTrayView(router, NOW).statusLine, "Port 19280 is in use by another user's fcm-router");
});

test('the tooltip names the last request and its failovers, as in the README', () => {
  const models = Array.from({ length: 12 }, (_, i) => model(`p/m${i}`, i >= 9 ? { state: 'DEGRADED' } : {}));
  const last = entry({
    servedModel: 'groq/llama-3.3-70b',
    attempts: [attempt('demo-flaky/empty-200', 'empty_choices'), attempt('groq/llama-3.3-70b', null)],
  });
  const view = computeTrayView({ kind: 'running', state: snapshot(models), lastEntry: last }, NOW);
  assert.equal(
    view.tooltip,
    'fcm-router — next request goes to p/m0 · last: groq/llama-3.3-70b (1 failover)',
  );
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

test('red when the newest agent requests all failed, though every model looks CLOSED (the verdict of /api/state)', () => {
  const recent = {
    window: 6,
    failedInARow: 6,
    causes: ['network_error' as const],
    unreachable: true,
    spared: ['a/x', 'b/y'],
    lastAt: NOW - 1000,
  };
  const state = snapshot([model('a/x'), model('b/y')], { recent });
  const view = computeTrayView({ kind: 'running', state, lastEntry: null }, NOW);
  assert.equal(view.colour, 'red');
  assert.equal(
    view.statusLine,
    'The last 6 requests failed: no provider reachable (network_error) — check the connection or proxy',
  );
});
