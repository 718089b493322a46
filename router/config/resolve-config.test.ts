import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogueProvider } from '../catalogue/providers.js';
import { checkProviders } from './provider-checks.js';
import { resolveConfig, splitModelKey } from './resolve-config.js';
import type { Catalogue } from './resolve-config.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { parseConfig } from './schema.js';
import type { Config, ConfigInput } from './schema.js';

function cfg(input: ConfigInput): Config {
  const result = parseConfig(input);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

const provider = (id: string, extra: Partial<CatalogueProvider> = {}): CatalogueProvider => ({
  id,
  name: id.toUpperCase(),
  baseUrl: `https://${id}.example/v1`,
  keyEnv: [`${id.toUpperCase()}_KEY`],
  keyRequired: true,
  signupUrl: null,
  quotaScope: 'model',
  ...extra,
});

const model = (p: string, id: string, tier: string | null, sweScore: number | null) => ({
  provider: p,
  id,
  label: id,
  tier,
  sweScore,
  context: null,
});

test('splitModelKey splits at the first slash only', () => {
  assert.deepEqual(splitModelKey('groq/openai/gpt-oss-120b'), {
    provider: 'groq',
    modelId: 'openai/gpt-oss-120b',
  });
  assert.deepEqual(splitModelKey('zai/zai/glm-4.7'), { provider: 'zai', modelId: 'zai/glm-4.7' });
  for (const bad of ['groq', '/x', 'groq/', '']) assert.equal(splitModelKey(bad), null, bad);
});

test('key precedence: config key, then apiKeyEnv, then the catalogue env list', () => {
  const env = { GROQ_API_KEY: 'from-catalogue-env', FCM_MY_GROQ_KEY: ' from-own-env \n' };
  const viaConfig = resolveConfig(
    cfg({ providers: { groq: { apiKey: 'in-config', apiKeyEnv: 'FCM_MY_GROQ_KEY' } } }),
    env,
  );
  assert.equal(viaConfig.providers.get('groq')?.apiKey, 'in-config');
  assert.equal(viaConfig.providers.get('groq')?.keySource, 'config');

  const viaOwnEnv = resolveConfig(
    cfg({ providers: { groq: { apiKey: '  ', apiKeyEnv: 'FCM_MY_GROQ_KEY' } } }),
    env,
  );
  assert.equal(viaOwnEnv.providers.get('groq')?.apiKey, 'from-own-env');
  assert.equal(viaOwnEnv.providers.get('groq')?.keySource, 'env:FCM_MY_GROQ_KEY');

  const viaCatalogue = resolveConfig(cfg({}), env);
  assert.equal(viaCatalogue.providers.get('groq')?.apiKey, 'from-catalogue-env');
  assert.equal(viaCatalogue.providers.get('groq')?.keySource, 'env:GROQ_API_KEY');

  // apiKeyEnv names the one variable to use; an unset one does not fall back to the catalogue's list.
  const unsetOwn = resolveConfig(cfg({ providers: { groq: { apiKeyEnv: 'FCM_UNSET_VAR_KEY' } } }), env);
  assert.equal(unsetOwn.providers.get('groq')?.apiKey, null);
  assert.equal(unsetOwn.providers.get('groq')?.keySource, null);

  // A variable whose value could never be sent as a key (not printable ASCII) counts as unset.
  const garbled = resolveConfig(cfg({}), { GROQ_API_KEY: 'gsk-é\r\nx' });
  assert.equal(garbled.providers.get('groq')?.apiKey, null);
});

test('the first non-empty variable of the catalogue list wins', () => {
  const resolved = resolveConfig(cfg({}), { MISTRAL_API_KEY: '', CODESTRAL_API_KEY: 'c-key' });
  assert.equal(resolved.providers.get('codestral')?.keySource, 'env:CODESTRAL_API_KEY');
  assert.equal(resolved.providers.get('mistral')?.apiKey, null);
});

test('kilo and llm7 need no key; others do', () => {
  const resolved = resolveConfig(cfg({}), {});
  assert.equal(resolved.providers.get('kilo')?.keyRequired, false);
  assert.equal(resolved.providers.get('kilo')?.apiKey, null);
  assert.equal(resolved.providers.get('llm7')?.keyRequired, false);
  assert.equal(resolved.providers.get('groq')?.keyRequired, true);
});

test('cloudflare is unresolvable without CLOUDFLARE_ACCOUNT_ID and resolved with it', () => {
  const without = resolveConfig(cfg({}), { CLOUDFLARE_API_TOKEN: 't' });
  assert.equal(without.providers.get('cloudflare')?.baseUrl, null);
  assert.equal(without.providers.get('cloudflare')?.apiKey, 't');
  const withId = resolveConfig(cfg({}), { CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: 'abc123' });
  assert.equal(
    withId.providers.get('cloudflare')?.baseUrl,
    'https://api.cloudflare.com/client/v4/accounts/abc123/ai/v1',
  );
});

test('zai ids lose their prefix upstream; catalogue facts are carried', () => {
  const resolved = resolveConfig(cfg({}), {});
  const glm = resolved.models.get('zai/zai/glm-4.7');
  assert.equal(glm?.upstreamModelId, 'glm-4.7');
  assert.equal(glm?.modelId, 'zai/glm-4.7');
  assert.equal(glm?.tier, 'S+');
  const gptOss = resolved.models.get('groq/openai/gpt-oss-120b');
  assert.equal(gptOss?.upstreamModelId, 'openai/gpt-oss-120b');
  assert.equal(gptOss?.sweScore, 62.4);
  assert.equal(resolved.providers.get('openrouter')?.quotaScope, 'key');
  // Mistral's free tier is the organisation's across models; Codestral shares its endpoint and key.
  assert.equal(resolved.providers.get('mistral')?.quotaScope, 'key');
  assert.equal(resolved.providers.get('codestral')?.quotaScope, 'key');
  assert.equal(resolved.providers.get('groq')?.quotaScope, 'model');
});

test('a provider’s day: Google AI Studio’s starts at Pacific midnight, others at UTC, the config overrides either', () => {
  const resolved = resolveConfig(cfg({}), {});
  assert.equal(resolved.providers.get('googleai')?.dayTimeZone, 'America/Los_Angeles');
  assert.equal(resolved.providers.get('groq')?.dayTimeZone, 'UTC');
  const own = resolveConfig(
    cfg({
      providers: {
        googleai: { dayTimeZone: 'UTC' },
        groq: { dayTimeZone: 'Europe/Paris' },
        local: { baseUrl: 'http://127.0.0.1:1/v1', models: ['m'] },
      },
    }),
    {},
  );
  assert.equal(own.providers.get('googleai')?.dayTimeZone, 'UTC');
  assert.equal(own.providers.get('groq')?.dayTimeZone, 'Europe/Paris');
  assert.equal(own.providers.get('local')?.dayTimeZone, 'UTC');
});

test('a provider whose base URL is on loopback is known as local, once, as it is resolved', () => {
  const resolved = resolveConfig(
    cfg({
      providers: {
        ollama: { baseUrl: 'http://localhost:11434/v1', models: ['m'] },
        lan: { baseUrl: 'http://192.168.1.20:8000/v1', models: ['m'] },
      },
    }),
    {},
  );
  const local = (id: string) => resolved.providers.get(id)?.local;
  assert.deepEqual(
    ['ollama', 'lan', 'groq'].map(local),
    [true, false, false],
    'a server on another machine, a catalogue provider: not local',
  );
});

test('config overrides merge over a catalogue provider', () => {
  const resolved = resolveConfig(
    cfg({
      providers: {
        openrouter: {
          models: ['vendor/new:free', 'vendor/new:free'],
          headers: { 'X-Title': 'mine' },
          enabled: false,
        },
      },
    }),
    {},
  );
  const openrouter = resolved.providers.get('openrouter');
  assert.equal(openrouter?.enabled, false);
  assert.equal(openrouter?.custom, false);
  assert.equal(openrouter?.headers['X-Title'], 'mine');
  assert.ok(openrouter?.headers['HTTP-Referer']);
  assert.equal(openrouter?.modelIds.at(-1), 'vendor/new:free');
  assert.equal(openrouter?.modelIds.filter((id) => id === 'vendor/new:free').length, 1);
  assert.equal(resolved.models.get('openrouter/vendor/new:free')?.label, null);
});

test('a custom provider is resolved from the config alone', () => {
  const resolved = resolveConfig(
    cfg({
      providers: { myhost: { name: 'My box', baseUrl: 'http://127.0.0.1:8000/v1', models: ['qwen3-coder'] } },
    }),
    {},
  );
  const myhost = resolved.providers.get('myhost');
  assert.equal(myhost?.custom, true);
  assert.equal(myhost?.name, 'My box');
  assert.equal(myhost?.baseUrl, 'http://127.0.0.1:8000/v1');
  assert.equal(myhost?.keyRequired, false);
  assert.equal(myhost?.bodyPreset, null);
  assert.deepEqual(myhost?.modelIds, ['qwen3-coder']);
  assert.equal(
    resolved.sets['default']?.[0],
    'myhost/qwen3-coder',
    'ahead of the keyless catalogue providers',
  );
  assert.ok(
    resolved.sets['default']?.slice(1).every((key) => /^(kilo|llm7)\//.test(key)),
    'no catalogue provider has a key',
  );
});

test('set models of known providers resolve even when not in the catalogue; unknown providers do not', () => {
  const resolved = resolveConfig(
    cfg({
      providers: { groq: { apiKey: 'k' } },
      sets: { work: ['groq/brand-new-model', 'nowhere/model', 'groq/openai/gpt-oss-120b'] },
      activeSet: 'work',
    }),
    {},
  );
  assert.deepEqual(
    { ...resolved.sets },
    {
      work: ['groq/brand-new-model', 'nowhere/model', 'groq/openai/gpt-oss-120b'],
    },
  );
  assert.equal(resolved.activeSet, 'work');
  assert.equal(resolved.models.get('groq/brand-new-model')?.upstreamModelId, 'brand-new-model');
  assert.ok(resolved.providers.get('groq')?.modelIds.includes('brand-new-model'));
  assert.equal(resolved.models.has('nowhere/model'), false);
  assert.equal(resolved.providers.has('nowhere'), false);
});

test('the default set: providers with a key (or custom) by tier, score and catalogue order, then keyless ones', () => {
  const catalogue: Catalogue = {
    providers: [provider('a'), provider('b'), provider('c'), provider('free', { keyRequired: false })],
    models: [
      model('a', 'unknown-tier', null, 90),
      model('a', 'b-tier', 'B', 10),
      model('b', 's-plus-low', 'S+', 40),
      model('a', 's-plus-no-score', 'S+', null),
      model('b', 's-plus-high', 'S+', 70),
      model('a', 's-plus-high-too', 'S+', 70),
      model('c', 'no-key', 'S+', 99),
      model('free', 'keyless', 'S+', 99),
      model('free', 'keyless-b', 'B', 10),
      model('b', 'a-minus', 'A-', 50),
      model('b', 'a-plus', 'A+', 1),
    ],
  };
  const config = cfg({ providers: { b: { apiKey: 'kb' }, c: { apiKey: 'kc', enabled: false } } });
  const resolved = resolveConfig(config, { A_KEY: 'ka' }, catalogue);
  assert.deepEqual(
    { ...resolved.sets },
    {
      default: [
        'b/s-plus-high',
        'a/s-plus-high-too',
        'b/s-plus-low',
        'a/s-plus-no-score',
        'b/a-plus',
        'b/a-minus',
        'a/b-tier',
        'a/unknown-tier',
        'free/keyless',
        'free/keyless-b',
      ],
    },
  );
  assert.equal(resolved.activeSet, 'default');
  assert.equal(resolved.models.size, 11, 'every model of every provider, usable or not');
});

test('a first run with no key routes over the keyless providers of the catalogue', () => {
  const resolved = resolveConfig(cfg({}), {});
  const providers = new Set(resolved.sets['default']?.map((key) => splitModelKey(key)?.provider));
  assert.deepEqual([...providers].sort(), ['kilo', 'llm7']);
  assert.ok((resolved.sets['default']?.length ?? 0) > 10);
  // A keyless provider given a key (LLM7 takes an optional one) counts among the keyed ones.
  const keyed = resolveConfig(cfg({}), { LLM7_API_KEY: 'k' }).sets['default'] ?? [];
  assert.equal(splitModelKey(keyed[0] ?? '')?.provider, 'llm7');
});

test('an empty sets object means the default set; an unresolvable provider is left out of it', () => {
  const resolved = resolveConfig(
    cfg({ sets: {}, providers: { kilo: { enabled: false }, llm7: { enabled: false } } }),
    {
      CLOUDFLARE_API_TOKEN: 't',
      CEREBRAS_API_KEY: 'k',
    },
  );
  const providers = new Set(resolved.sets['default']?.map((key) => splitModelKey(key)?.provider));
  assert.deepEqual([...providers], ['cerebras']);
});

test('activeSet falls back to default when it names no set', () => {
  // The schema refuses such a config; the resolver still never routes over a set that is not there.
  assert.equal(resolveConfig({ ...cfg({}), activeSet: 'missing' }, {}).activeSet, 'default');
});

test('checkProviders wants a baseUrl and models for custom providers only', () => {
  const config = cfg({
    providers: { groq: {}, mine: { name: 'Mine' }, empty: { baseUrl: 'https://x.example/v1', models: [] } },
  });
  assert.deepEqual(
    checkProviders(config).map((issue) => issue.path),
    ['providers.mine.baseUrl', 'providers.mine.models', 'providers.empty.models'],
  );
  assert.deepEqual(checkProviders(cfg({ providers: { groq: { apiKey: 'k' } } })), []);
});

test('the last-resort model must be a model the router knows', () => {
  const issues = (lastResortModel: string) =>
    checkProviders(
      cfg({
        providers: { mine: { baseUrl: 'http://127.0.0.1:1/v1', models: ['m'] } },
        router: { failover: { lastResortModel } },
      }),
    );
  assert.deepEqual(issues('nope/nothing'), [
    {
      path: 'router.failover.lastResortModel',
      message: 'no provider "nope": name a model as provider/model, e.g. groq/llama-3.3-70b-versatile',
    },
  ]);
  assert.deepEqual(issues('groq/not-a-groq-model'), [
    {
      path: 'router.failover.lastResortModel',
      message:
        'groq has no model "not-a-groq-model" in the catalogue: pick one of its models, or list it in providers.groq.models',
    },
  ]);
  assert.deepEqual(issues('groq/llama-3.3-70b-versatile'), []);
  assert.deepEqual(issues('mine/m'), []);
  const listed = cfg({
    providers: { groq: { models: ['brand-new'] } },
    router: { failover: { lastResortModel: 'groq/brand-new' } },
  });
  assert.deepEqual(checkProviders(listed), []);
});

test('a model named twice in a set is kept once, at its first place', () => {
  const resolved = resolveConfig(
    cfg({
      providers: { groq: { apiKey: 'k' } },
      sets: { work: ['groq/a', 'groq/b', 'groq/a', 'groq/c', 'groq/b'] },
      activeSet: 'work',
    }),
    {},
  );
  assert.deepEqual(resolved.sets.work, ['groq/a', 'groq/b', 'groq/c']);
});

test('several keys: apiKey then apiKeys, deduplicated; apiKeyEnv may list several variables', () => {
  const env = { FCM_GROQ_A_KEY: 'gsk-a', FCM_GROQ_B_KEY: ' gsk-b ', GROQ_API_KEY: 'gsk-catalogue' };
  const listed = resolveConfig(
    cfg({ providers: { groq: { apiKey: 'gsk-1', apiKeys: ['gsk-2', 'gsk-1', ' '] } } }),
    env,
  ).providers.get('groq');
  assert.deepEqual(
    listed?.keys.map(({ value, source, fingerprint }) => ({ value, source, fingerprint })),
    [
      { value: 'gsk-1', source: 'config', fingerprint: keyFingerprint('gsk-1') },
      { value: 'gsk-2', source: 'config', fingerprint: keyFingerprint('gsk-2') },
    ],
  );
  assert.equal(listed?.apiKey, 'gsk-1');

  const fromEnv = resolveConfig(
    cfg({ providers: { groq: { apiKeyEnv: ['FCM_GROQ_A_KEY', 'FCM_UNSET_VAR_KEY', 'FCM_GROQ_B_KEY'] } } }),
    env,
  ).providers.get('groq');
  assert.deepEqual(
    fromEnv?.keys.map(({ value, source }) => [value, source]),
    [
      ['gsk-a', 'env:FCM_GROQ_A_KEY'],
      ['gsk-b', 'env:FCM_GROQ_B_KEY'],
    ],
  );
  assert.equal(fromEnv?.keySource, 'env:FCM_GROQ_A_KEY');
  const onlyList = resolveConfig(cfg({ providers: { groq: { apiKeys: ['gsk-x'] } } }), env);
  assert.equal(onlyList.providers.get('groq')?.apiKey, 'gsk-x', 'config keys win over the environment');
});

test('apiKeyEnv and apiKeys are validated', () => {
  const bad = parseConfig({
    providers: { groq: { apiKeyEnv: ['FCM_OK_KEY', 'not a name'], apiKeys: 'gsk' } },
  });
  assert.equal(bad.ok, false);
  if (bad.ok) return;
  assert.deepEqual(bad.issues, [
    { path: 'providers.groq.apiKeys', message: 'a list ([ … ])' },
    { path: 'providers.groq.apiKeyEnv.1', message: 'must be an environment variable name' },
  ]);
});

test("a model's reshaping: its provider's preset, the config's over the catalogue's, else Mistral's rules for a Mistral model", () => {
  const resolved = resolveConfig(
    cfg({
      providers: {
        // A Mistral deployment under ids the family names do not show.
        vault: { baseUrl: 'http://127.0.0.1:8000/v1', models: ['team-coder'], bodyPreset: 'mistral' },
        box: { baseUrl: 'http://127.0.0.1:8001/v1', models: ['devstral-small-2505', 'qwen3-coder'] },
        mistral: { models: ['mistral-small-latest'], bodyPreset: 'none' },
        codestral: { models: ['codestral-latest'] },
        zai: { models: ['zai/glm-4.6'] },
      },
    }),
    {},
  );
  const preset = (key: string) => resolved.models.get(key)?.bodyPreset;
  assert.equal(preset('vault/team-coder'), 'mistral');
  assert.equal(preset('box/devstral-small-2505'), 'mistral-model');
  assert.equal(preset('box/qwen3-coder'), null);
  assert.equal(preset('mistral/mistral-small-latest'), null, '`none` turns every reshaping off');
  assert.equal(preset('codestral/codestral-latest'), 'mistral');
  assert.equal(preset('zai/zai/glm-4.6'), 'strict');
});

test('a bodyPreset the router does not know is refused, naming the ones it does', () => {
  const result = parseConfig({ providers: { box: { bodyPreset: 'openai' } } });
  assert.equal(result.ok, false);
  assert.deepEqual(result.ok ? [] : result.issues.map((issue) => `${issue.path}: ${issue.message}`), [
    'providers.box.bodyPreset: one of strict, mistral, gemini, none',
  ]);
});

test('a provider’s own list offers the models the router has no entry for, even one it may not judge any gone by', () => {
  const catalogue: Catalogue = {
    providers: [provider('cat')],
    models: [model('cat', 'm1', 'A', null), model('cat', 'm2', 'A', null)],
  };
  const config = cfg({
    providers: {
      cat: { apiKey: 'k' },
      // A custom provider (a local server): no catalogue model for its list to name.
      mine: { baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'x', models: ['small'] },
    },
  });
  const discovered = new Map([
    ['mine', { ids: new Set(['small', 'big']) }],
    ['cat', { ids: new Set(['m1', 'm3']) }],
  ]);
  const resolved = resolveConfig(config, {}, catalogue, discovered);
  assert.deepEqual(resolved.providers.get('mine')?.discoveredNew, ['big']);
  assert.deepEqual(resolved.providers.get('cat')?.discoveredNew, ['m3']);
  assert.equal(resolved.models.get('cat/m2')?.vanished, true);

  // A list naming none of the catalogue's models judges none gone, and still offers what it names.
  const other = resolveConfig(config, {}, catalogue, new Map([['cat', { ids: new Set(['m9']) }]]));
  assert.deepEqual(other.providers.get('cat')?.discoveredNew, ['m9']);
  assert.equal(other.models.get('cat/m1')?.vanished, undefined);
});

test('a base URL pasted with a trailing slash is used without it', () => {
  const resolved = resolveConfig(
    cfg({ providers: { myhost: { baseUrl: 'http://127.0.0.1:8000/v1//', models: ['m'] } } }),
    {},
  );
  assert.equal(resolved.providers.get('myhost')?.baseUrl, 'http://127.0.0.1:8000/v1');
});
