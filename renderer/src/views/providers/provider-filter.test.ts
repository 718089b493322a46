import { expect, test } from 'vitest';
import type { KeyStatus, ProviderView } from '../../../../router/api-types.js';
import { listProviders } from './provider-filter.js';

const provider = (id: string, keyStatus: KeyStatus, enabled = true): ProviderView => ({
  id,
  name: id,
  signupUrl: null,
  keyStatus,
  keySource: null,
  enabled,
  custom: false,
  unresolvable: false,
  keys: [],
  discoveredAt: null,
  discoveredNew: [],
  models: [],
});

test('usable providers first (enabled or not), then refused keys, then the rest, each in catalogue order', () => {
  const all = [
    provider('a', 'missing'),
    provider('b', 'set'),
    provider('c', 'invalid'),
    provider('d', 'not_required'),
    provider('e', 'env', false),
  ];
  expect(listProviders(all, 'all').map((p) => p.id)).toEqual(['b', 'd', 'e', 'c', 'a']);
  expect(listProviders(all, 'usable').map((p) => p.id)).toEqual(['b', 'd', 'e']);
  expect(listProviders(all, 'missing').map((p) => p.id)).toEqual(['c', 'a']);
});
