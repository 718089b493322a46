import { expect, test } from 'vitest';
import type { QuotaPauseView } from '../../../router/api-types.js';
import { attempt, historyEntry } from '../test-support/fixtures.js';
import { formatClock } from './format.js';
import { findPauseCause, quotaPauseWords } from './quota-pause.js';

const AT = 1_000_000;
const pause = (over: Partial<QuotaPauseView> = {}): QuotaPauseView => ({
  until: AT + 240_000,
  reason: 'rate_limit',
  fromProvider: true,
  scope: 'model',
  repeat: 1,
  ...over,
});

const history = [
  historyEntry({ requestId: 'newest', at: AT + 5000, attempts: [attempt('up/m1', { kind: null })] }),
  historyEntry({
    requestId: 'the-429',
    at: AT,
    attempts: [attempt('up/m3', { kind: 'rate_limit', status: 429 }), attempt('up/m1', { kind: null })],
  }),
  historyEntry({
    requestId: 'older',
    at: AT - 9000,
    attempts: [attempt('up/m3', { kind: 'rate_limit', status: 429 })],
  }),
];
const m3 = { key: 'up/m3', provider: 'up' };

test('a quota-paused model names the 429 that paused it and that the provider’s Retry-After set the length', () => {
  const cause = findPauseCause(history, m3, pause());
  expect(cause).toMatchObject({ requestId: 'the-429', status: 429, at: AT });
  expect(quotaPauseWords(pause(), cause, 'up/m3')).toBe(
    `paused by the 429 at ${formatClock(AT)} — the provider’s Retry-After holds it until ${formatClock(AT + 240_000)}`,
  );
});

test('without a usable Retry-After the pause is the router’s own; a key-wide pause names the model that got the 429', () => {
  const own = pause({ fromProvider: false, until: AT + 60_000 });
  expect(quotaPauseWords(own, findPauseCause(history, m3, own), 'up/m3')).toMatch(
    /^paused by the 429 at .* — no usable Retry-After, so the router’s own pause until /,
  );
  const wide = pause({ scope: 'provider' });
  const m1 = { key: 'up/m1', provider: 'up' };
  expect(quotaPauseWords(wide, findPauseCause(history, m1, wide), 'up/m1')).toMatch(
    /^paused by the 429 at \S+ on up\/m3 \(a limit of the whole key: every model of it waits\) — /,
  );
});

test('a refused location says so, and that Reset tries again', () => {
  const region = pause({ reason: 'region_refused', scope: 'provider', until: AT + 900_000 });
  expect(quotaPauseWords(region, null, 'up/m3')).toBe(
    `paused by a 403 (the whole key: every model of it waits) — the provider does not serve this network location, held until ${formatClock(AT + 900_000)} (Reset tries again now)`,
  );
});

test('out of history: the status alone; a 402 says out of credit', () => {
  expect(quotaPauseWords(pause(), null, 'up/m3')).toMatch(/^paused by a 429 — /);
  expect(quotaPauseWords(pause({ reason: 'payment_required', scope: 'provider' }), null, 'up/m3')).toMatch(
    /^paused by a 402 \(a limit of the whole key.*\) — out of credit, held until /,
  );
});

test('a pause that ran out into another 429 says it is the router’s doubled length, not the provider’s', () => {
  const repeated = pause({ fromProvider: false, repeat: 3, until: AT + 120_000 });
  expect(quotaPauseWords(repeated, findPauseCause(history, m3, repeated), 'up/m3')).toBe(
    `paused by the 429 at ${formatClock(AT)} — 3rd 429 in a row as its pause ran out, so the router doubled the pause: until ${formatClock(AT + 120_000)}`,
  );
});
