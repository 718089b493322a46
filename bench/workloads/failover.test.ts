import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RouterHandle } from '../../router/public-types.js';
import { startRouter } from '../../router/daemon/start-router.js';
import { benchConfig } from '../bench-config.js';
import { startFastUpstream } from '../fake-upstream-fast.js';
import { openPool } from '../load-client.js';
import { measureFailover } from './failover.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('measureFailover', () => {
  let upstream: Awaited<ReturnType<typeof startFastUpstream>>;
  let router: RouterHandle;
  let dir: string;

  before(async () => {
    upstream = await startFastUpstream();
    dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-bench-failover-'));
    await writeFile(path.join(dir, 'config.json'), JSON.stringify(benchConfig(upstream.url, 1000)));
    router = await startRouter({ port: 0, stateDir: dir, env: {}, logger: silent, discoveryTickMs: 0 });
  });

  after(async () => {
    await router.stop({ graceMs: 0 });
    upstream.server.closeAllConnections();
    await new Promise((resolve) => upstream.server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('gets an empty 200 from the flaky model through the router, so each such request fails over once', async () => {
    const pool = openPool(router.url, 1);
    try {
      const sample = await measureFailover(pool, 5);
      assert.equal(sample.errors, 0, 'the first request of each pair served at once, the second failed over');
    } finally {
      await pool.close();
    }
  });
});
