import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyFingerprint } from '../state/key-fingerprint.js';
import {
  configKeys,
  withAddedKey,
  withNewProvider,
  withoutKey,
  withProviderSettings,
  withRestoredKey,
} from './provider-edits.js';
import type { ConfigInput } from './schema.js';

const RAW: ConfigInput = {
  providers: { groq: { apiKey: 'k1', apiKeys: ['k2', 'k3'], enabled: false } },
  sets: { main: ['groq/m'] },
  activeSet: 'main',
};

test('a new provider gets its address, models, headers and keys: the first as apiKey, the rest after', () => {
  const next = withNewProvider(RAW, {
    id: 'mine',
    name: 'My proxy',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKeys: ['a', 'b'],
    models: ['m1'],
    headers: { 'x-team': 'blue' },
  });
  assert.deepEqual(next.providers?.mine, {
    name: 'My proxy',
    baseUrl: 'http://127.0.0.1:9/v1',
    models: ['m1'],
    headers: { 'x-team': 'blue' },
    apiKey: 'a',
    apiKeys: ['b'],
  });
  assert.deepEqual(next.providers?.groq, RAW.providers?.groq, 'other providers as they were');
  const bare = withNewProvider({}, { id: 'local', baseUrl: 'http://x/v1', apiKeys: [], models: ['m'] });
  assert.deepEqual(bare.providers?.local, { baseUrl: 'http://x/v1', models: ['m'] });
});

test('a reserved name stays a plain entry, for the schema to refuse', () => {
  const next = withNewProvider({}, { id: '__proto__', baseUrl: 'http://x/v1', apiKeys: [], models: ['m'] });
  assert.ok(Object.hasOwn(next.providers ?? {}, '__proto__'));
  assert.equal(Object.getPrototypeOf(next.providers), Object.prototype);
});

test('an added key goes after the others, or becomes apiKey when there is none', () => {
  assert.deepEqual(configKeys(withAddedKey(RAW, 'groq', 'k4').providers?.groq), ['k1', 'k2', 'k3', 'k4']);
  const first = withAddedKey({ providers: { groq: { enabled: false } } }, 'groq', 'k1');
  assert.deepEqual(first.providers?.groq, { enabled: false, apiKey: 'k1' });
  assert.deepEqual(withAddedKey({}, 'groq', 'k1').providers?.groq, { apiKey: 'k1' });
});

test('a key is removed by its fingerprint and put back where it stood', () => {
  const removed = withoutKey(RAW, 'groq', keyFingerprint('k1'));
  assert.ok(removed);
  assert.deepEqual(removed.taken, { value: 'k1', index: 0 });
  assert.deepEqual(removed.raw.providers?.groq, { apiKey: 'k2', apiKeys: ['k3'], enabled: false });
  const back = withRestoredKey(removed.raw, 'groq', removed.taken);
  assert.deepEqual(configKeys(back.providers?.groq), ['k1', 'k2', 'k3']);
  assert.equal(withRestoredKey(back, 'groq', removed.taken), back, 'once only');

  const last = withoutKey({ providers: { groq: { apiKey: 'k1' } } }, 'groq', keyFingerprint('k1'));
  assert.deepEqual(last?.raw.providers?.groq, {}, 'no empty apiKey left behind');
  assert.equal(withoutKey(RAW, 'groq', keyFingerprint('nope')), null);
  assert.equal(withoutKey(RAW, 'other', keyFingerprint('k1')), null);
});

test('probes and limits are set, kept when left out, and removed with null', () => {
  const on = withProviderSettings(RAW, 'groq', { probe: { enabled: true, dailyBudget: 5 } });
  assert.deepEqual(on.providers?.groq?.probe, { enabled: true, dailyBudget: 5 });
  const limited = withProviderSettings(on, 'groq', { limits: { rpm: 10 } });
  assert.deepEqual(limited.providers?.groq?.probe, { enabled: true, dailyBudget: 5 });
  assert.deepEqual(limited.providers?.groq?.limits, { rpm: 10 });
  const off = withProviderSettings(limited, 'groq', { probe: null, limits: null });
  assert.deepEqual(off.providers?.groq, RAW.providers?.groq);
});
