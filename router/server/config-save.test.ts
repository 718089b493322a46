/**
 * Saving the config over the API: a stored key never follows its provider to a new address or new
 * headers unless the same request sets it again, and a file that cannot be read is never replaced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import type { ConfigResponse, ConfigSaveResponse, ErrorResponse } from '../api-types.js';
import { MASKED_SECRET } from '../api-types.js';
import type { ConfigInput } from '../config/schema.js';
import { parseReply, type HttpReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, sets: { main: ['alpha/m1'], spare: ['beta/m2'] } };

type Providers = NonNullable<ConfigInput['providers']>;

/** The config as the dashboard holds it (keys masked), with `alpha` changed by `change`. */
async function editedConfig(
  get: (path: string) => Promise<HttpReply>,
  change: (alpha: Providers[string]) => Providers[string],
): Promise<ConfigInput> {
  const shown = parseReply<ConfigResponse>(await get('/api/config')).config;
  const alpha = shown.providers?.alpha;
  assert.equal(alpha?.apiKey, MASKED_SECRET);
  return { ...shown, providers: { ...shown.providers, alpha: change(alpha ?? {}) } };
}

async function savedKey(configPath: string, provider: string): Promise<string | undefined> {
  const written = JSON.parse(await readFile(configPath, 'utf8')) as ConfigInput;
  return written.providers?.[provider]?.apiKey;
}

test('a PUT that moves a provider to another base URL drops its stored key, and says so', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a')).always('moved/m1', json('m'));
    const next = await editedConfig(router.get.bind(router), (alpha) => ({
      ...alpha,
      baseUrl: upstream.baseUrl('moved'),
    }));
    const saved = await router.api('PUT', '/api/config', next);
    assert.equal(saved.status, 200, saved.text);
    const body = parseReply<ConfigSaveResponse>(saved);
    assert.deepEqual(body.keysDropped, ['alpha']);
    assert.ok(body.changed.includes('providers.alpha.apiKey'));
    assert.equal(body.config.providers?.alpha?.apiKey, undefined, 'no mask where no key is left');
    assert.equal(await savedKey(router.router.configPath, 'alpha'), undefined);
    assert.equal(await savedKey(router.router.configPath, 'beta'), 'sk-test-beta', 'other keys stay');

    await router.chat();
    const call = upstream.callsTo('moved/m1')[0];
    assert.ok(call, 'the request went to the new address');
    assert.equal(call.headers.authorization, undefined, 'without the key meant for the old one');
  });
});

test('the same PUT may set the key again; an unchanged address keeps the stored key', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const withKey = await editedConfig(router.get.bind(router), (alpha) => ({
      ...alpha,
      baseUrl: upstream.baseUrl('moved'),
      apiKey: 'sk-for-the-new-place',
    }));
    const saved = parseReply<ConfigSaveResponse>(await router.api('PUT', '/api/config', withKey));
    assert.deepEqual(saved.keysDropped, []);
    assert.equal(await savedKey(router.router.configPath, 'alpha'), 'sk-for-the-new-place');

    const unchanged = parseReply<ConfigResponse>(await router.get('/api/config')).config;
    const again = parseReply<ConfigSaveResponse>(
      await router.api('PUT', '/api/config', { ...unchanged, activeSet: 'spare' }),
    );
    assert.deepEqual(again.keysDropped, []);
    assert.equal(await savedKey(router.router.configPath, 'alpha'), 'sk-for-the-new-place');
  });
});

test('adding or changing custom headers drops the stored key; removing them does not', async () => {
  await withScenario(TWO, async ({ router }) => {
    const added = await editedConfig(router.get.bind(router), (alpha) => ({
      ...alpha,
      headers: { 'x-route': 'elsewhere' },
    }));
    const first = parseReply<ConfigSaveResponse>(await router.api('PUT', '/api/config', added));
    assert.deepEqual(first.keysDropped, ['alpha']);
    assert.equal(await savedKey(router.router.configPath, 'alpha'), undefined);

    assert.equal(
      (await router.api('POST', '/api/providers/key', { provider: 'alpha', apiKey: 'sk-2' })).status,
      200,
    );
    const removed = await editedConfig(router.get.bind(router), ({ headers: _gone, ...alpha }) => alpha);
    const second = parseReply<ConfigSaveResponse>(await router.api('PUT', '/api/config', removed));
    assert.deepEqual(second.keysDropped, []);
    assert.equal(await savedKey(router.router.configPath, 'alpha'), 'sk-2');
  });
});

test('a config file that cannot be read is not replaced: saves answer 409 naming why, the config in use stays', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('a')).always('beta/m2', json('b'));
    const shown = parseReply<ConfigResponse>(await router.get('/api/config'));
    // Root ignores file modes: a folder where the file should be cannot be read either.
    await rm(router.router.configPath);
    await mkdir(router.router.configPath);

    const put = await router.api('PUT', '/api/config', { ...shown.config, activeSet: 'spare' });
    assert.equal(put.status, 409, put.text);
    const error = parseReply<ErrorResponse>(put).error;
    assert.equal(error.code, 'config_file_invalid');
    assert.match(error.message, /cannot read the file \(EISDIR\)/);
    const key = await router.api('POST', '/api/providers/key', { provider: 'beta', apiKey: 'sk-lost' });
    assert.equal(key.status, 409, key.text);

    const after = parseReply<ConfigResponse>(await router.get('/api/config'));
    assert.deepEqual([after.config, after.effective], [shown.config, shown.effective], 'nothing applied');
    assert.match(after.fileProblem?.issues[0]?.message ?? '', /cannot read the file \(EISDIR\)/);
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1', 'routing as before');
    assert.deepEqual(await readdir(router.router.configPath), [], 'nothing written into the folder');
    assert.deepEqual(
      (await readdir(router.dir)).sort(),
      ['config.json', 'renderer', 'state'],
      'no temp file left',
    );
    await rm(router.router.configPath, { recursive: true });
  });
});
