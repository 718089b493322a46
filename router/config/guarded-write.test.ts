/**
 * Writers of `config.json` racing each other through the real guarded writer, on real files: of writers that
 * read the same revision only one writes, so no change reported saved is lost; the daemon's saves take
 * the same lock as the CLI's; a lock left by a crashed writer is taken over, a live one waited for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { systemTime } from '../state/clock.js';
import { ioTurns } from '../test-support/deferred.js';
import { withDir } from '../test-support/state-test-helpers.js';
import { loadConfigFile, writeConfigGuarded, type GuardedWrite } from './config-store.js';
import { LiveConfig } from './live-config.js';
import { withProviderKey } from './provider-key.js';
import type { ConfigInput } from './schema.js';

const PROVIDERS = ['groq', 'cerebras', 'openrouter', 'mistral', 'nvidia', 'codestral'];

async function readConfig(file: string): Promise<ConfigInput> {
  return JSON.parse(await readFile(file, 'utf8')) as ConfigInput;
}

/** Stores `provider`'s key as set-key does without a daemon: read, change, write if unchanged since. */
async function setKey(file: string, provider: string): Promise<GuardedWrite> {
  const loaded = await loadConfigFile(file);
  assert.ok(loaded.ok);
  return writeConfigGuarded(file, withProviderKey(loaded.raw, provider, `key_${provider}`), loaded.revision);
}

test('writers that read the same revision: one writes, the others are refused, and the file holds its change', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'config.json');
    await writeFile(file, '{}\n');
    const read = await loadConfigFile(file);
    assert.ok(read.ok);
    const writes = await Promise.all(
      PROVIDERS.map((provider) =>
        writeConfigGuarded(file, withProviderKey(read.raw, provider, `key_${provider}`), read.revision),
      ),
    );
    const saved = PROVIDERS.filter((_, index) => writes[index]?.ok);
    assert.equal(saved.length, 1, JSON.stringify(writes));
    assert.deepEqual(Object.keys((await readConfig(file)).providers ?? {}), saved);
    assert.deepEqual(await readdir(dir), ['config.json'], 'the lock is released');
  }, 'fcm-guarded-');
});

test('writers each reading and writing at once: every change reported saved is in the file', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'config.json');
    await writeFile(file, '{}\n');
    const writes = await Promise.all(PROVIDERS.map((provider) => setKey(file, provider)));
    assert.ok(
      writes.some((write) => write.ok),
      'one of them saved',
    );
    const keys = (await readConfig(file)).providers ?? {};
    PROVIDERS.forEach((provider, index) => {
      if (writes[index]?.ok) assert.equal(keys[provider]?.apiKey, `key_${provider}`, provider);
    });
  }, 'fcm-guarded-');
});

test("the daemon's save and a CLI writer at once: one is refused, the other's change is kept", async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'config.json');
    await writeFile(file, '{}\n');
    const loaded = await loadConfigFile(file);
    assert.ok(loaded.ok);
    const { raw, config, revision } = loaded;
    const live = new LiveConfig({ path: file, raw, config, revision, env: {} });
    const [daemon, cli] = await Promise.all([
      live.update((current) => ({ ...current, activeSet: 'default' })),
      writeConfigGuarded(file, withProviderKey(raw, 'groq', 'key_groq'), revision),
    ]);
    assert.equal(daemon.ok !== cli.ok, true, JSON.stringify({ daemon, cli }));
    const onDisk = await readConfig(file);
    assert.deepEqual(
      onDisk,
      daemon.ok ? { activeSet: 'default' } : { providers: { groq: { apiKey: 'key_groq' } } },
    );
  }, 'fcm-guarded-');
});

test('a writer waits while a live writer holds the lock, and checks the file once it is free', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'config.json');
    await writeFile(file, '{}\n');
    const read = await loadConfigFile(file);
    assert.ok(read.ok);
    const lock = `${file}.lock`;
    await writeFile(lock, `${JSON.stringify({ pid: process.pid, nonce: 'other' })}\n`);
    const waiting = writeConfigGuarded(file, { activeSet: 'mine' }, read.revision);
    await ioTurns(20);
    // The holder writes its change, then lets go.
    await writeFile(file, '{ "activeSet": "theirs" }\n');
    await rm(lock);
    const result = await waiting;
    assert.equal(result.ok, false, 'the change made under the lock is not replaced');
    assert.deepEqual(await readConfig(file), { activeSet: 'theirs' });
  }, 'fcm-guarded-');
});

test("a lock left by a writer that is gone, or too old to be a write's, is taken over", async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'config.json');
    const lock = `${file}.lock`;
    await writeFile(lock, `${JSON.stringify({ pid: 4242, nonce: 'crashed' })}\n`);
    const dead = await writeConfigGuarded(file, { activeSet: 'a' }, 'none', {
      isAlive: () => false,
      time: systemTime,
    });
    assert.equal(dead.ok, true);

    const loaded = await loadConfigFile(file);
    await writeFile(lock, `${JSON.stringify({ pid: process.pid, nonce: 'hung' })}\n`);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const stale = await writeConfigGuarded(file, { activeSet: 'b' }, loaded.revision);
    assert.equal(stale.ok, true);
    assert.deepEqual(await readConfig(file), { activeSet: 'b' });
    assert.deepEqual(await readdir(dir), ['config.json']);
  }, 'fcm-guarded-');
});
