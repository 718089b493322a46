import { expect, test } from 'vitest';
import type { ProviderView } from '../../../../router/api-types.js';
import { discoverable, discoveryWords } from './DiscoverModels.js';

const provider = (id: string, over: Partial<ProviderView> = {}): ProviderView => ({
  id,
  name: id,
  signupUrl: null,
  keyStatus: 'set',
  keySource: 'config',
  enabled: true,
  custom: false,
  unresolvable: false,
  keys: [],
  discoveredAt: null,
  discoveredNew: [],
  models: [],
  ...over,
});

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
