import { test } from 'node:test';
import { EventEmitter } from 'node:events';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRouter } from '../router/index.js';
import { ioTurns } from '../router/test-support/deferred.js';
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
  resolveProxy: async (): Promise<string> => 'PROXY 127.0.0.1:9; DIRECT',
  wakes: new EventEmitter(),
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
      const attaching = { ...place(stateDir), version: daemon.version };
      const result = await desktopConnector(attaching)(daemon.port);
      assert.equal(result.kind, 'connected');
      if (result.kind !== 'connected') return;
      assert.equal(result.source.mode, 'attached');
      assert.equal(attaching.wakes.listenerCount('resume'), 0, 'an attached daemon follows its own proxy');
      assert.equal(result.source.url, daemon.url);
      await result.source.close();
      assert.equal((await fetch(`${daemon.url}/health`)).status, 200);
    } finally {
      await daemon.stop({ graceMs: 0 });
    }
  });
});

test("an fcm-router on another state folder (another user's) holding the port is not fronted: port taken", async () => {
  await withFolder(async (theirs) => {
    const daemon = await startRouter({ port: 0, stateDir: theirs, env: {}, time: new TestClock() });
    try {
      await withFolder(async (stateDir) => {
        const result = await desktopConnector({ ...place(stateDir), version: daemon.version })(daemon.port);
        assert.equal(result.kind, 'port-taken');
        if (result.kind !== 'port-taken') return;
        assert.equal(result.otherRouter, true);
        assert.match(result.reason, new RegExp(`pid ${process.pid}.*another user's router`));
      });
    } finally {
      await daemon.stop({ graceMs: 0 });
    }
  });
});

test('the own router follows the system’s proxy as it changes, until it is closed', async () => {
  await withFolder(async (stateDir) => {
    let answer = 'PROXY 127.0.0.1:9; DIRECT';
    const own = { ...place(stateDir), resolveProxy: async () => answer };
    const result = await desktopConnector(own)(0);
    assert.equal(result.kind, 'connected');
    if (result.kind !== 'connected') return;
    const changed = () => own.logger.lines.filter((line) => line.includes("the system's proxy changed"));
    try {
      own.wakes.emit('resume');
      await ioTurns();
      assert.deepEqual(changed(), [], 'the proxy it started with');
      answer = 'DIRECT';
      own.wakes.emit('unlock-screen');
      await ioTurns();
      assert.deepEqual(changed(), ["info the system's proxy changed: calls to providers go directly"]);
    } finally {
      await result.source.close({ graceMs: 0 });
    }
    assert.equal(own.wakes.listenerCount('resume'), 0, 'closed, it no longer listens');
  });
});

test('a proxy the environment names wins: the own router does not follow the system’s', async () => {
  await withFolder(async (stateDir) => {
    const own = { ...place(stateDir), env: { https_proxy: 'http://127.0.0.1:9' } };
    const result = await desktopConnector(own)(0);
    assert.equal(result.kind, 'connected');
    if (result.kind !== 'connected') return;
    try {
      assert.equal(own.wakes.listenerCount('resume'), 0);
      assert.equal(own.wakes.listenerCount('unlock-screen'), 0);
    } finally {
      await result.source.close({ graceMs: 0 });
    }
  });
});
