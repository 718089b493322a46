import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGUE_MODELS } from './models.js';
import { CATALOGUE_PROVIDERS } from './providers.js';

const providerIds = new Set(CATALOGUE_PROVIDERS.map((provider) => provider.id));

test('the catalogue holds at least 15 providers and 100 models', () => {
  assert.ok(CATALOGUE_PROVIDERS.length >= 15, `${CATALOGUE_PROVIDERS.length} providers`);
  assert.ok(CATALOGUE_MODELS.length >= 100, `${CATALOGUE_MODELS.length} models`);
  assert.equal(providerIds.size, CATALOGUE_PROVIDERS.length, 'provider ids are unique');
});

test('every model belongs to a catalogue provider and every provider has models', () => {
  for (const model of CATALOGUE_MODELS) assert.ok(providerIds.has(model.provider), model.provider);
  const withModels = new Set(CATALOGUE_MODELS.map((model) => model.provider));
  for (const id of providerIds) assert.ok(withModels.has(id), `${id} has no model`);
});

test('no provider/id pair appears twice', () => {
  const keys = CATALOGUE_MODELS.map((model) => `${model.provider}/${model.id}`);
  assert.equal(new Set(keys).size, keys.length);
});

test('every base URL and signup link is https', () => {
  for (const provider of CATALOGUE_PROVIDERS) {
    assert.equal(new URL(provider.baseUrl).protocol, 'https:', provider.id);
    if (provider.signupUrl !== null)
      assert.equal(new URL(provider.signupUrl).protocol, 'https:', provider.id);
  }
});

test('every URL placeholder has an env var, and every provider a key source', () => {
  for (const provider of CATALOGUE_PROVIDERS) {
    for (const [, name] of provider.baseUrl.matchAll(/\{([^}]+)\}/g)) {
      assert.ok(name !== undefined && provider.urlParams?.[name], `${provider.id}: {${name}}`);
    }
    assert.ok(provider.keyEnv.length > 0, provider.id);
    for (const name of provider.keyEnv) assert.match(name, /^[A-Z][A-Z0-9_]*$/);
  }
});

test('provider quirks are in the data', () => {
  const byId = new Map(CATALOGUE_PROVIDERS.map((provider) => [provider.id, provider]));
  assert.deepEqual(byId.get('cloudflare')?.urlParams, { account_id: 'CLOUDFLARE_ACCOUNT_ID' });
  assert.equal(byId.get('zai')?.stripModelPrefix, 'zai/');
  assert.equal(byId.get('openrouter')?.quotaScope, 'key');
  assert.ok(byId.get('openrouter')?.headers?.['X-Title']);
  assert.deepEqual(
    CATALOGUE_PROVIDERS.filter((provider) => !provider.keyRequired).map((provider) => provider.id),
    ['kilo', 'llm7'],
  );
  for (const id of ['mistral', 'codestral']) assert.equal(byId.get(id)?.bodyPreset, 'mistral', id);
  // Z.ai refuses Mistral's parameters too, but its models are not Mistral's: no conversation rules.
  assert.equal(byId.get('zai')?.bodyPreset, 'strict');
  assert.equal(byId.get('googleai')?.bodyPreset, 'gemini');
  assert.deepEqual(byId.get('codestral')?.keyEnv, ['MISTRAL_API_KEY', 'CODESTRAL_API_KEY']);
});

test('model fields are parsed, not strings of the snapshot', () => {
  const tiers = new Set(['S+', 'S', 'A+', 'A', 'A-', 'B+', 'B', 'C']);
  for (const model of CATALOGUE_MODELS) {
    if (model.tier !== null) assert.ok(tiers.has(model.tier), `${model.id}: tier ${model.tier}`);
    if (model.sweScore !== null) assert.ok(model.sweScore > 0 && model.sweScore <= 100, model.id);
    assert.ok(model.label.length > 0);
  }
  const gptOss = CATALOGUE_MODELS.find(
    (model) => model.provider === 'groq' && model.id === 'openai/gpt-oss-120b',
  );
  assert.deepEqual(gptOss, {
    provider: 'groq',
    id: 'openai/gpt-oss-120b',
    label: 'GPT OSS 120B',
    tier: 'S',
    sweScore: 62.4,
    context: '131k',
  });
  assert.ok(
    CATALOGUE_MODELS.filter((model) => model.provider === 'zai').every((model) =>
      model.id.startsWith('zai/'),
    ),
  );
});
