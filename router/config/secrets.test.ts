import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MASKED_SECRET } from '../api-types.js';
import type { ConfigInput } from './schema.js';
import {
  headerDigests,
  headersAddedOrChanged,
  keysLeavingTheirAddress,
  maskSecrets,
  restoreMaskedSecrets,
} from './secrets.js';

const current: ConfigInput = {
  providers: {
    groq: { apiKey: 'gsk-secret', enabled: true },
    mistral: { apiKey: 'mistral-secret' },
    kilo: { apiKeyEnv: 'KILO_TOKEN' },
    blank: { apiKey: '' },
  },
  activeSet: 'default',
};

test('maskSecrets hides every key and leaves the input alone', () => {
  const masked = maskSecrets(current);
  assert.deepEqual(masked.providers, {
    groq: { apiKey: MASKED_SECRET, enabled: true },
    mistral: { apiKey: MASKED_SECRET },
    kilo: { apiKeyEnv: 'KILO_TOKEN' },
    blank: { apiKey: '' },
  });
  assert.equal(masked.activeSet, 'default');
  assert.equal(current.providers?.['groq']?.apiKey, 'gsk-secret');
  assert.ok(!JSON.stringify(masked).includes('secret'));
  assert.deepEqual(maskSecrets({}), {});
});

test('mask then restore gives back the same config', () => {
  assert.deepEqual(restoreMaskedSecrets(maskSecrets(current), current), current);
});

test('restore keeps masked keys, takes new ones and removes what was left out', () => {
  const incoming: ConfigInput = {
    providers: {
      groq: { apiKey: MASKED_SECRET, enabled: false },
      mistral: {},
      openrouter: { apiKey: 'sk-or-new' },
      cerebras: { apiKey: MASKED_SECRET },
    },
  };
  assert.deepEqual(restoreMaskedSecrets(incoming, current).providers, {
    groq: { apiKey: 'gsk-secret', enabled: false },
    mistral: {},
    openrouter: { apiKey: 'sk-or-new' },
    // A mask with no key behind it must not be saved as the key '********'.
    cerebras: {},
  });
  assert.equal(incoming.providers?.['groq']?.apiKey, MASKED_SECRET, 'input not mutated');
});

test('a masked key whose provider moves (base URL) or gains or changes headers would leave its address', () => {
  const stored: ConfigInput = {
    providers: {
      groq: { apiKey: 'gsk', baseUrl: 'https://a.example/v1', headers: { 'x-a': '1' } },
      mistral: { apiKey: 'mk' },
      cerebras: { apiKey: 'ck' },
      kilo: { apiKey: 'kk', headers: { 'x-b': '2' } },
      zai: { apiKey: 'zk', baseUrl: 'https://z.example/v1' },
    },
  };
  const incoming: ConfigInput = {
    providers: {
      groq: { apiKey: MASKED_SECRET, baseUrl: 'https://b.example/v1', headers: { 'x-a': '1' } },
      mistral: { apiKey: MASKED_SECRET, headers: { 'x-new': 'v' } },
      cerebras: { apiKey: 'ck-new', baseUrl: 'https://c.example/v1' },
      kilo: { apiKey: MASKED_SECRET },
      zai: { apiKey: MASKED_SECRET },
    },
  };
  const leaving = keysLeavingTheirAddress(incoming, stored);
  // groq moved, mistral gained a header, zai went back to the catalogue's URL; cerebras sets a new key,
  // kilo only lost a header.
  assert.deepEqual(leaving, ['groq', 'mistral', 'zai']);
  assert.deepEqual(restoreMaskedSecrets(incoming, stored, new Set(leaving)).providers, {
    groq: { baseUrl: 'https://b.example/v1', headers: { 'x-a': '1' } },
    mistral: { headers: { 'x-new': 'v' } },
    cerebras: { apiKey: 'ck-new', baseUrl: 'https://c.example/v1' },
    kilo: { apiKey: 'kk' },
    zai: {},
  });
  const changedValue: ConfigInput = {
    providers: { kilo: { apiKey: MASKED_SECRET, headers: { 'x-b': '3' } } },
  };
  assert.deepEqual(keysLeavingTheirAddress(changedValue, stored), ['kilo']);
  assert.deepEqual(keysLeavingTheirAddress(maskSecrets(stored), stored), []);
});

test('apiKeys are masked one by one with their fingerprints and restored by them', () => {
  const withList: ConfigInput = { providers: { groq: { apiKeys: ['gsk-one', 'gsk-two', 'gsk-three'] } } };
  const masked = maskSecrets(withList);
  const shown = masked.providers?.['groq']?.apiKeys ?? [];
  assert.equal(shown.length, 3);
  assert.ok(!JSON.stringify(masked).includes('gsk-'));
  assert.ok(shown.every((key) => key.startsWith(MASKED_SECRET)));
  assert.deepEqual(restoreMaskedSecrets(masked, withList), withList);

  // The editor dropped the second key, added one and sent back a mask nobody knows.
  const incoming: ConfigInput = {
    providers: { groq: { apiKeys: [shown[2] ?? '', 'gsk-new', `${MASKED_SECRET}000000000000`] } },
  };
  assert.deepEqual(restoreMaskedSecrets(incoming, withList).providers?.['groq']?.apiKeys, [
    'gsk-three',
    'gsk-new',
  ]);
});

test('header digests compare as the values do, and hold none of them', () => {
  const before = { 'X-Team': 'one', Authorization: 'Bearer secret-value' };
  const digests = headerDigests(before);
  assert.ok(!JSON.stringify(digests).includes('secret-value') && !JSON.stringify(digests).includes('one'));
  assert.deepEqual(Object.keys(digests), Object.keys(before));
  assert.deepEqual(headerDigests(before), digests, 'the same values, the same digests');
  const judge = (next: Record<string, string>) => [
    headersAddedOrChanged(next, before),
    headersAddedOrChanged(headerDigests(next), digests),
  ];
  assert.deepEqual(judge({ 'X-Team': 'one' }), [false, false], 'removed');
  assert.deepEqual(judge({ ...before }), [false, false], 'the same');
  assert.deepEqual(judge({ ...before, 'X-Team': 'two' }), [true, true], 'changed');
  assert.deepEqual(judge({ ...before, 'X-Forwarded-Host': 'a.example' }), [true, true], 'added');
});
