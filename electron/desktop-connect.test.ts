import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRouter } from '../router/index.js';
import { recordingLogger } from '../router/test-support/state-test-helpers.js';
import { TestClock } from '../router/test-support/test-clock.js';
import { desktopConnector } from './desktop-connect.js';

async function withFolder(run: (stateDir: string) => Promise<void>): Promise<void> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'fcm-desktop-connect-'));
  try {
    await run(stateDir);
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

const place = (stateDir: string) => ({
  host: '127.0.0.1',
  version: '0.1.0',
  stateDir,
  rendererDir: path.join(stateDir, 'renderer'),
  demo: false,
  env: {},
  // The system's proxy, as Chromium would resolve it: the own router takes it (its port is never reached).
  resolveProxy: async () => 'PROXY 127.0.0.1:9; DIRECT',
  logger: recordingLogger(),
  time: new TestClock(),
});

test('with the folder free, the app runs its own router there, on the port asked for, through the system’s proxy', async () => {
  await withFolder(async (stateDir) => {
    const own = place(stateDir);
    const result = await desktopConnector(own)(0);
    assert.equal(result.kind, 'connected');
    if (result.kind !== 'connected') return;
    try {
      assert.equal(result.source.mode, 'owned');
      assert.ok(
        own.logger.lines.includes(
          'info calls to https:// providers go through the proxy http://127.0.0.1:9, http:// ones directly; not for localhost, 127.0.0.1, [::1]',
        ),
        own.logger.lines.join('\n'),
      );
      const reading = await result.source.read();
      assert.ok(reading, 'the own router answers');
      assert.equal((await fetch(`${result.source.url}/health`)).status, 200);
    } finally {
      await result.source.close({ graceMs: 0 });
    }
  });
});

test('an fcm-router already serving the port is attached to, and keeps running when the app lets go', async () => {
  await withFolder(async (stateDir) => {
    const daemon = await startRouter({ port: 0, stateDir, env: {}, time: new TestClock() });
    try {
      const result = await desktopConnector({ ...place(stateDir), version: daemon.version })(daemon.port);
      assert.equal(result.kind, 'connected');
      if (result.kind !== 'connected') return;
      assert.equal(result.source.mode, 'attached');
      assert.equal(result.source.url, daemon.url);
      await result.source.close();
      assert.equal((await fetch(`${daemon.url}/health`)).status, 200);
    } finally {
      await daemon.stop({ graceMs: 0 });
    }
  });
});
