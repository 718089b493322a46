import { expect, test } from 'vitest';
import { providerView } from '../../test-support/fixtures.js';
import { discoverable, discoveryWords, lastCheckWords } from './DiscoverModels.js';

const provider = providerView;

test('only enabled providers with a URL and a usable key have a list to fetch', () => {
  const all = [
    provider('groq'),
    provider('off', { enabled: false }),
    provider('nokey', { keyStatus: 'missing' }),
    provider('refused', { keyStatus: 'invalid' }),
    provider('cloudflare', { unresolvable: true }),
  ];
  expect(discoverable(all).map((p) => p.id)).toEqual(['groq']);
});

test('a list in words: how many listed, gone and new', () => {
  expect(
    discoveryWords({ ok: true, provider: 'groq', listed: 14, vanished: ['groq/a'], discovered: ['b', 'c'] }),
  ).toBe('groq: 14 listed, 1 gone (skipped), 2 new (offered below)');
  expect(discoveryWords({ ok: true, provider: 'x', listed: 3, vanished: [], discovered: [] })).toBe(
    'x: 3 listed',
  );
});

test('when the lists were last fetched: the latest of them, or not yet', () => {
  const now = Date.UTC(2030, 0, 15, 12, 0, 0);
  expect(lastCheckWords([provider('groq')], now)).toBe(
    'The router fetches them by itself once a day; not fetched yet.',
  );
  const lists = [
    provider('groq', { discoveredAt: now - 3 * 3_600_000 }),
    provider('cerebras', { discoveredAt: now - 90_000 }),
    provider('nvidia'),
  ];
  expect(lastCheckWords(lists, now)).toBe(
    'The router fetches them by itself once a day; last fetched 1 min 30 s ago.',
  );
});
