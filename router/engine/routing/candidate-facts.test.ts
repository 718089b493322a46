import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { resolveConfig } from '../../config/resolve-config.js';
import { breakerSchema, parseConfig, type ConfigInput } from '../../config/schema.js';
import { BreakerStore } from '../../state/breaker-store.js';
import { QuotaBook } from '../../state/quota-book.js';
import { withDir } from '../../test-support/state-test-helpers.js';
import { candidateFacts } from './candidate-facts.js';
import { keyId } from '../booking/key-rotation.js';
import { keyFingerprint } from '../../state/key-fingerprint.js';
import { rankCandidates } from './ranking.js';
import { TestClock } from '../../test-support/test-clock.js';

const T0 = 1_700_000_000_000;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

function resolve(input: ConfigInput, env: Record<string, string> = {}) {
  const parsed = parseConfig(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return resolveConfig(parsed.config, env);
}

async function withStores(run: (stores: { breakers: BreakerStore; quotas: QuotaBook }) => Promise<void>) {
  await withDir(async (dir) => {
    const time = new TestClock(T0);
    const breakers = new BreakerStore({
      file: join(dir, 'breakers.json'),
      time,
      settings: () => breakerSchema.parse({}),
      debounceMs: 60_000,
      logger: silent,
    });
    const quotas = new QuotaBook({
      file: join(dir, 'quota.json'),
      time,
      debounceMs: 60_000,
      logger: silent,
    });
    await run({ breakers, quotas });
  });
}

function groqModel(resolved: ReturnType<typeof resolve>): string {
  const key = [...resolved.models.keys()].find((name) => name.startsWith('groq/'));
  assert.ok(key, 'the catalogue has a groq model');
  return key;
}

test('a new ResolvedConfig is seen by the facts and by ranking (key added, then provider disabled)', async () => {
  await withStores(async ({ breakers, quotas }) => {
    const keyless = resolve({});
    const key = groqModel(keyless);
    const rank = (resolved: ReturnType<typeof resolve>) =>
      rankCandidates(
        [key],
        (name) => candidateFacts(name, resolved, breakers, quotas, new Set()),
        T0,
        breakerSchema.parse({}),
      );

    assert.equal(candidateFacts(key, keyless, breakers, quotas, new Set()).blocked, 'missing_key');
    assert.deepEqual(rank(keyless).skips, [{ model: key, reason: 'missing_key' }]);

    const keyed = resolve({ providers: { groq: { apiKey: 'k-1' } } });
    assert.equal(candidateFacts(key, keyed, breakers, quotas, new Set()).blocked, null);
    assert.deepEqual(rank(keyed).order, [{ key, role: 'normal' }]);
    // The earlier config's answer is unchanged: each ResolvedConfig keeps its own facts.
    assert.equal(candidateFacts(key, keyless, breakers, quotas, new Set()).blocked, 'missing_key');

    const disabled = resolve({ providers: { groq: { apiKey: 'k-1', enabled: false } } });
    assert.deepEqual(rank(disabled).skips, [{ model: key, reason: 'provider_disabled' }]);
    assert.equal(candidateFacts('nobody/none', keyed, breakers, quotas, new Set()).blocked, 'unknown_model');
  });
});

test('an auth block holds for its key only: a new key in a new config lifts it', async () => {
  await withStores(async ({ breakers, quotas }) => {
    const first = resolve({ providers: { groq: { apiKey: 'k-1' } } });
    const key = groqModel(first);
    quotas.blockAuth('groq', keyFingerprint('k-1'));
    assert.equal(candidateFacts(key, first, breakers, quotas, new Set()).blocked, 'auth_error');

    const second = resolve({ providers: { groq: { apiKey: 'k-2' } } });
    assert.equal(candidateFacts(key, second, breakers, quotas, new Set()).blocked, null);
    const refused = new Set([keyId('groq', keyFingerprint('k-2'))]);
    assert.equal(candidateFacts(key, second, breakers, quotas, refused).blocked, 'auth_error');
  });
});

test('with several keys a model is blocked only when every key is refused or paused', async () => {
  await withStores(async ({ breakers, quotas }) => {
    const resolved = resolve({ providers: { groq: { apiKey: 'k-1', apiKeys: ['k-2'] } } });
    const key = groqModel(resolved);
    quotas.blockAuth('groq', keyFingerprint('k-1'));
    assert.equal(candidateFacts(key, resolved, breakers, quotas, new Set()).blocked, null);
    quotas.pauseModel(key, keyFingerprint('k-2'), 60_000, true);
    assert.equal(candidateFacts(key, resolved, breakers, quotas, new Set()).blocked, 'quota_paused');
    quotas.blockAuth('groq', keyFingerprint('k-2'));
    assert.equal(candidateFacts(key, resolved, breakers, quotas, new Set()).blocked, 'auth_error');
  });
});

test('state read per request is never cached: a pause and a busy trial slot show at once', async () => {
  await withStores(async ({ breakers, quotas }) => {
    const resolved = resolve({ providers: { groq: { apiKey: 'k-1' } } });
    const key = groqModel(resolved);
    assert.equal(candidateFacts(key, resolved, breakers, quotas, new Set()).blocked, null);
    quotas.pauseModel(key, keyFingerprint('k-1'), 60_000, true);
    assert.equal(candidateFacts(key, resolved, breakers, quotas, new Set()).blocked, 'quota_paused');
    assert.equal(candidateFacts(key, resolved, breakers, quotas, new Set()).breaker.state, 'CLOSED');
    assert.equal(breakers.tryAcquireTrial(key), true);
    assert.equal(candidateFacts(key, resolved, breakers, quotas, new Set()).trialBusy, true);
  });
});

test('a ranking is timeless only while no cooldown, trial timer or quota pause is in it; the stores say when they change', async () => {
  await withStores(async ({ breakers, quotas }) => {
    const resolved = resolve({ providers: { groq: { apiKey: 'k-1' } } });
    const key = groqModel(resolved);
    const keyless = [...resolved.models.keys()].find(
      (name) => resolved.models.get(name)?.provider === 'mistral',
    );
    assert.ok(keyless, 'the catalogue has a mistral model (no key given)');
    const rank = () =>
      rankCandidates(
        [key, keyless],
        (name) => candidateFacts(name, resolved, breakers, quotas, new Set()),
        T0,
        breakerSchema.parse({}),
      );

    assert.equal(rank().timeless, true, 'CLOSED, and a missing key: only a state change alters this');
    const breakerVersion = breakers.version;
    breakers.recordSuccess(key, null);
    assert.equal(breakers.version, breakerVersion, 'a healthy model serving again changes nothing');

    breakers.recordFailure(key, 'server_error');
    assert.notEqual(breakers.version, breakerVersion);
    breakers.recordFailure(key, 'server_error');
    assert.equal(breakers.get(key).state, 'DEGRADED');
    assert.equal(rank().timeless, false, 'a DEGRADED model is due a trial after a while');
    breakers.recordSuccess(key, null);
    assert.equal(rank().timeless, true);

    const quotaVersion = quotas.version;
    quotas.pauseModel(key, keyFingerprint('k-1'), 60_000, true);
    assert.notEqual(quotas.version, quotaVersion);
    assert.deepEqual(rank().skips[0], { model: key, reason: 'quota_paused' });
    assert.equal(rank().timeless, false, 'a pause runs out by itself');
  });
});
