import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfigFile } from '../config/config-store.js';
import { LiveConfig } from '../config/live-config.js';
import { EventBus } from '../engine/event-bus.js';
import { openStateStores } from './state-stores.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

const CONFIG = {
  providers: {
    alpha: { baseUrl: 'http://127.0.0.1:9/alpha', apiKey: 'sk-a', models: ['m1', 'm2'] },
    beta: { baseUrl: 'http://127.0.0.1:9/beta', apiKey: 'sk-b', models: ['m3'] },
  },
  sets: { main: ['alpha/m1', 'alpha/m2', 'beta/m3'] },
  activeSet: 'main',
};

test('the stores tell their subscribers which models changed: a model’s pause, every model of a paused provider', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'config.json');
    await writeFile(file, JSON.stringify(CONFIG));
    const loaded = await loadConfigFile(file);
    assert.ok(loaded.ok);
    const { raw, config, revision } = loaded;
    const live = new LiveConfig({ path: file, raw, config, revision, env: {} });
    const logger = recordingLogger();
    const time = new TestClock();
    const stores = await openStateStores({
      stateDir: dir,
      time,
      debounceMs: 60_000,
      logger,
      live,
      events: new EventBus(),
    });
    const changed: string[] = [];
    const off = stores.onModelChange((key) => changed.push(key));
    stores.quotas.pauseModel('alpha/m1', 'fp-a', 60_000, true);
    assert.deepEqual(changed, ['alpha/m1']);
    stores.quotas.pauseProvider('alpha', 'fp-a', 60_000, 'rate_limit', true);
    assert.deepEqual(changed, ['alpha/m1', 'alpha/m1', 'alpha/m2']);
    off();
    stores.quotas.pauseProvider('beta', 'fp-b', 60_000, 'rate_limit', true);
    assert.equal(changed.length, 3, 'nothing after unsubscribing');
    await stores.close();
  }, 'fcm-stores-');
});
