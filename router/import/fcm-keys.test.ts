/**
 * The keys of a free-coding-models config: a `${NAME}` placeholder is read as that variable (never sent as
 * a key), a value that is no usable key skips its provider with a line naming the entry and why, and the
 * rest of the import goes ahead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_KEY_MESSAGE, type ConfigInput } from '../config/schema.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { parseFcmConfig, type FcmConfig } from './fcm-config.js';
import { planImport } from './import-plan.js';

const KNOWN = new Set(['groq', 'cerebras', 'nvidia', 'openrouter', 'myproxy']);

function read(apiKeys: Record<string, unknown>): FcmConfig {
  const parsed = parseFcmConfig(JSON.stringify({ apiKeys }));
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return parsed.config;
}

test('"${NAME}" is a variable, not a key; every other reference form and every unusable value is named with its reason', () => {
  assert.deepEqual(
    read({
      nvidia: '${NVIDIA_API_KEY}',
      groq: [' ${FCM_GROQ_KEY_1} ', '${FCM_GROQ_KEY_2}', '${FCM_GROQ_KEY_1}', ''],
      cerebras: 5,
      openrouter: ['sk-or-ok', 7],
      mistral: '$MISTRAL_API_KEY',
      zai: 'zai-${SUFFIX}',
      kilo: '{env:KILO_API_KEY}',
      sambanova: 'has a space',
      codestral: ['cod-key', '${CODESTRAL_API_KEY}'],
      dashscope: null,
      scaleway: [],
    }).keys,
    {
      nvidia: { kind: 'env', names: ['NVIDIA_API_KEY'] },
      groq: { kind: 'env', names: ['FCM_GROQ_KEY_1', 'FCM_GROQ_KEY_2'] },
      cerebras: {
        kind: 'unusable',
        problem: 'apiKeys.cerebras: a key must be a string or a list of strings, not a number',
      },
      openrouter: { kind: 'unusable', problem: 'apiKeys.openrouter.1: a key must be a string, not a number' },
      mistral: {
        kind: 'unusable',
        problem:
          'apiKeys.mistral: names an environment variable in a form fcm-router does not read; write "${NAME}" for the key to come from the variable NAME',
      },
      zai: {
        kind: 'unusable',
        problem:
          'apiKeys.zai: names an environment variable in a form fcm-router does not read; write "${NAME}" for the key to come from the variable NAME',
      },
      kilo: {
        kind: 'unusable',
        problem:
          'apiKeys.kilo: names an environment variable in a form fcm-router does not read; write "${NAME}" for the key to come from the variable NAME',
      },
      sambanova: { kind: 'unusable', problem: `apiKeys.sambanova: ${API_KEY_MESSAGE}` },
      codestral: {
        kind: 'unusable',
        problem:
          'apiKeys.codestral: mixes keys and "${NAME}" variables; fcm-router uses a provider\'s keys before its variables, so list one kind',
      },
    },
  );
});

test('the plan makes "${NAME}" the provider\'s apiKeyEnv, skips what cannot be imported with a line, and imports the rest', () => {
  const fcm = read({
    nvidia: '${NVIDIA_API_KEY}',
    groq: 5,
    cerebras: 'csk_real',
    openrouter: '${GROQ_API_KEY}',
    myproxy: '${FCM_MY_PROXY_KEY}',
  });
  const plan = planImport(fcm, { current: {}, effective: {}, known: KNOWN, force: false });
  assert.deepEqual(plan.lines, [
    '+ nvidia: key from $NVIDIA_API_KEY',
    '- groq: skipped (apiKeys.groq: a key must be a string or a list of strings, not a number)',
    `+ cerebras: 1 key (${keyFingerprint('csk_real')})`,
    "- openrouter: skipped (apiKeys.openrouter: ${GROQ_API_KEY} is not a variable fcm-router reads openrouter's key from; use OPENROUTER_API_KEY, or one made for fcm-router (FCM_…_KEY, FCM_…_TOKEN))",
    '+ myproxy: key from $FCM_MY_PROXY_KEY',
  ]);
  assert.deepEqual(plan.next.providers, {
    nvidia: { apiKeyEnv: 'NVIDIA_API_KEY' },
    cerebras: { apiKey: 'csk_real' },
    myproxy: { apiKeyEnv: 'FCM_MY_PROXY_KEY' },
  });
  assert.ok(!JSON.stringify(plan.next).includes('${'), 'no placeholder is ever taken for a key');
  assert.equal(
    planImport(fcm, { current: plan.next, effective: {}, known: KNOWN, force: false }).changed,
    false,
    'importing twice changes nothing',
  );
});

test('a variable replaces keys or another variable the config has only with --force', () => {
  const fcm = read({ nvidia: ['${NVIDIA_API_KEY}', '${FCM_NVIDIA_KEY_2}'], groq: 'gsk_new' });
  const current: ConfigInput = {
    providers: { nvidia: { apiKey: 'nvapi-mine', enabled: true }, groq: { apiKeyEnv: 'FCM_GROQ_KEY' } },
  };
  const kept = planImport(fcm, { current, effective: {}, known: KNOWN, force: false });
  assert.deepEqual(kept.lines, [
    `! nvidia: has 1 key (${keyFingerprint('nvapi-mine')}), kept (--force replaces them with keys from $NVIDIA_API_KEY, $FCM_NVIDIA_KEY_2)`,
    `! groq: has its key from $FCM_GROQ_KEY, kept (--force replaces them with 1 key (${keyFingerprint('gsk_new')}))`,
  ]);
  assert.equal(kept.changed, false);
  const forced = planImport(fcm, { current, effective: {}, known: KNOWN, force: true });
  assert.deepEqual(forced.next.providers, {
    nvidia: { enabled: true, apiKeyEnv: ['NVIDIA_API_KEY', 'FCM_NVIDIA_KEY_2'] },
    groq: { apiKey: 'gsk_new' },
  });
  assert.deepEqual(forced.lines, [
    '~ nvidia: keys from $NVIDIA_API_KEY, $FCM_NVIDIA_KEY_2',
    `~ groq: 1 key (${keyFingerprint('gsk_new')})`,
  ]);
});
