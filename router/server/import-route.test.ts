/**
 * `POST /api/config/import`: an import is planned against the config in use (an edit made on disk a moment
 * before included), saved and applied at once; a dry run writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import type { ConfigImportResponse, ErrorResponse } from '../api-types.js';
import type { ConfigInput } from '../config/schema.js';
import { parseReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, sets: { main: ['alpha/m1'] } };
const IMPORT = {
  keys: { beta: { kind: 'keys', keys: ['sk-imported'] } },
  disabled: [],
  sets: { imported: ['beta/m2'] },
  activeSet: null,
  force: true,
};

test('an import is merged into the config in use, a hand edit made just before included, and applied at once', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('beta/m2', json('b'));
    const file = router.router.configPath;
    const edited = { ...(JSON.parse(await readFile(file, 'utf8')) as ConfigInput), activeSet: 'main' };
    edited.router = { ...edited.router, ranking: { order: { default: 'fastest' } } };
    await writeFile(file, JSON.stringify(edited));

    const dry = await router.api('POST', '/api/config/import', { ...IMPORT, dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    const plan = parseReply<ConfigImportResponse>(dry);
    assert.deepEqual([plan.changed, plan.written, plan.path], [true, false, file]);
    assert.ok(plan.lines.includes('+ set imported: 1 model'), plan.lines.join('\n'));
    assert.ok(!dry.text.includes('sk-imported'), 'keys by fingerprint only');
    assert.equal(
      JSON.parse(await readFile(file, 'utf8')).sets.imported,
      undefined,
      'a dry run writes nothing',
    );

    const done = parseReply<ConfigImportResponse>(
      await router.api('POST', '/api/config/import', { ...IMPORT, dryRun: false }),
    );
    assert.equal(done.written, true);
    const saved = JSON.parse(await readFile(file, 'utf8')) as ConfigInput;
    assert.deepEqual(saved.router?.ranking, { order: { default: 'fastest' } }, 'the hand edit is kept');
    assert.deepEqual(saved.sets?.['imported'], ['beta/m2']);
    assert.equal(saved.providers?.['beta']?.apiKey, 'sk-imported');
    const reply = await router.chat({ model: 'fcm:imported' });
    assert.equal(reply.headers['x-fcm-v2-model'], 'beta/m2', 'applied without a restart');
    assert.equal(upstream.calls.at(-1)?.headers.authorization, 'Bearer sk-imported');
  });
});

test('an import that would leave an invalid config is refused with its issues and writes nothing', async () => {
  await withScenario(TWO, async ({ router }) => {
    const before = await readFile(router.router.configPath, 'utf8');
    const reply = await router.api('POST', '/api/config/import', {
      ...IMPORT,
      sets: { broken: ['beta/'] },
      dryRun: false,
    });
    assert.equal(reply.status, 400, reply.text);
    const error = parseReply<ErrorResponse>(reply).error;
    assert.equal(error.code, 'invalid_config');
    assert.ok(
      error.issues?.some((issue) => issue.path.startsWith('sets.broken')),
      JSON.stringify(error),
    );
    assert.equal(await readFile(router.router.configPath, 'utf8'), before);
  });
});

test('keys read from variables and keys that cannot be imported come through as the CLI read them', async () => {
  await withScenario(TWO, async ({ router }) => {
    const keys = {
      beta: { kind: 'env', names: ['FCM_BETA_KEY'] },
      alpha: {
        kind: 'unusable',
        problem: 'apiKeys.alpha: a key must be a string or a list of strings, not a number',
      },
    };
    const reply = await router.api('POST', '/api/config/import', { ...IMPORT, keys, dryRun: true });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(parseReply<ConfigImportResponse>(reply).lines.slice(0, 2), [
      '~ beta: key from $FCM_BETA_KEY',
      '- alpha: skipped (apiKeys.alpha: a key must be a string or a list of strings, not a number)',
    ]);
    const bad = { beta: { kind: 'env', names: ['NOT A NAME'] } };
    const refused = await router.api('POST', '/api/config/import', { ...IMPORT, keys: bad, dryRun: true });
    assert.equal(refused.status, 400, refused.text);
  });
});

test('an import into a running config without sets keeps the automatic set default, still routable', async () => {
  await withScenario(
    { providers: { alpha: ['m1'], beta: ['m2'] }, sets: {}, activeSet: 'default' },
    async ({ router, upstream }) => {
      upstream.always('alpha/m1', json('a'));
      const body = { ...IMPORT, force: false, dryRun: false };
      const done = await router.api('POST', '/api/config/import', body);
      assert.equal(done.status, 200, done.text);
      const saved = JSON.parse(await readFile(router.router.configPath, 'utf8')) as ConfigInput;
      assert.equal(saved.activeSet, 'imported', 'the imported set is active, as in a config without sets');
      const automatic = saved.sets?.['default'] ?? [];
      assert.deepEqual(automatic.slice(0, 2).sort(), ['alpha/m1', 'beta/m2'], 'the keyed models first');
      assert.deepEqual(Object.keys(saved.sets ?? {}), ['default', 'imported']);
      const { lines } = parseReply<ConfigImportResponse>(done);
      assert.ok(
        lines.includes(
          `+ set default: ${automatic.length} models (the automatic set as it stood, written out so it stays)`,
        ),
        lines.join('\n'),
      );
      const reply = await router.chat({ model: 'fcm:default' });
      assert.equal(reply.status, 200);
    },
  );
});
