import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MASKED_SECRET } from '../api-types.js';
import type { ConfigInput } from './schema.js';
import { maskSecrets, restoreMaskedSecrets } from './secrets.js';

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
