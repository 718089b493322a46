import { expect, test } from 'vitest';
import type { KeyStatus, ProviderView } from '../../../../router/api-types.js';
import { providerView } from '../../test-support/fixtures.js';
import { isUsable, listProviders } from './provider-filter.js';

const provider = (id: string, keyStatus: KeyStatus, enabled = true): ProviderView =>
  providerView(id, { keyStatus, keySource: null, enabled });

const all = [
  provider('a', 'missing'),
  provider('b', 'set'),
  provider('c', 'invalid'),
  provider('d', 'not_required'),
  provider('e', 'env', false),
];

test('ready providers first (switched on or not), then refused keys, then the rest, each in catalogue order', () => {
  expect(listProviders(all, 'all').map((p) => p.id)).toEqual(['b', 'd', 'e', 'c', 'a']);
  expect(listProviders(all, 'missing').map((p) => p.id)).toEqual(['c', 'a']);
});

test('a provider switched off is not usable: neither listed under Usable nor counted', () => {
  expect(listProviders(all, 'usable').map((p) => p.id)).toEqual(['b', 'd']);
  expect(all.filter(isUsable).map((p) => p.id)).toEqual(['b', 'd']);
});
