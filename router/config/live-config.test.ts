import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { withDir } from '../test-support/state-test-helpers.js';
import { loadConfigFile } from './config-store.js';
import { LiveConfig } from './live-config.js';

test('each change applied reaches every onApplied listener, in order, until it unsubscribes', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'config.json');
    const loaded = await loadConfigFile(file);
    assert.ok(loaded.ok);
    const { raw, config, revision } = loaded;
    const live = new LiveConfig({ path: file, raw, config, revision, env: {} });
    const seen: string[] = [];
    const off = live.onApplied((resolved, changed) =>
      seen.push(`first ${changed.join(',')} ${resolved.config.router.failover.maxAttempts}`),
    );
    live.onApplied((resolved, changed) =>
      seen.push(`second ${changed.join(',')} ${resolved.config.router.failover.maxAttempts}`),
    );
    const maxAttempts = (value: number) => (raw: typeof loaded.raw) => ({
      ...raw,
      router: { failover: { maxAttempts: value } },
    });
    assert.equal((await live.update(maxAttempts(2))).ok, true);
    off();
    assert.equal((await live.update(maxAttempts(3))).ok, true);
    assert.deepEqual(seen, [
      'first router.failover.maxAttempts 2',
      'second router.failover.maxAttempts 2',
      'second router.failover.maxAttempts 3',
    ]);
  }, 'fcm-live-');
});
