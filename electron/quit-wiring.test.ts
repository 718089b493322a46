import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { deferred, ioTurns } from '../router/test-support/deferred.js';
import { QUIT_GRACE_MS, SESSION_END_GRACE_MS } from './quit-flow.js';
import { wireQuit, type QuitApp } from './quit-wiring.js';

/** A stand-in for Electron's `app`: `quit()` emits `before-quit`, and quits unless a listener prevents it. */
function fakeApp(): QuitApp & EventEmitter & { quitted: number } {
  const app = Object.assign(new EventEmitter(), {
    quitted: 0,
    quit() {
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) app.quitted += 1;
    },
  });
  return app;
}

function setUp() {
  const app = fakeApp();
  const powerMonitor = new EventEmitter();
  const signals = new EventEmitter();
  const stopped = deferred();
  const log: string[] = [];
  const quit = wireQuit({
    app,
    powerMonitor,
    signals,
    stop: (graceMs) => (log.push(`stop ${graceMs}`), stopped.promise),
    allowWindowClose: () => log.push('window closable'),
    openDashboard: () => log.push('dashboard'),
    logError: (line) => log.push(line),
  });
  quit.closeOnQuit(() => log.push('tray destroyed'));
  return { app, powerMonitor, signals, stopped, log, quit };
}

test('a quit is held until the router stopped with the full grace, then the tray goes and the app quits', async () => {
  const { app, stopped, log } = setUp();
  app.quit();
  assert.deepEqual(log, ['window closable', `stop ${QUIT_GRACE_MS}`]);
  assert.equal(app.quitted, 0, 'held while the router stops');
  stopped.resolve();
  await ioTurns();
  assert.deepEqual(log.slice(2), ['tray destroyed', 'window closable']);
  assert.equal(app.quitted, 1);
});

test('the system shutting down delays its default and quits with the short grace', async () => {
  const { app, powerMonitor, stopped, log } = setUp();
  let delayed = false;
  powerMonitor.emit('shutdown', { preventDefault: () => (delayed = true) });
  assert.equal(delayed, true);
  assert.deepEqual(log, ['window closable', `stop ${SESSION_END_GRACE_MS}`]);
  stopped.resolve();
  await ioTurns();
  assert.equal(app.quitted, 1);
});

test('the end of a session (the Windows watcher) quits with the short grace', () => {
  const { log, quit } = setUp();
  quit.endSession();
  assert.deepEqual(log, ['window closable', `stop ${SESSION_END_GRACE_MS}`]);
});

test('SIGINT and SIGTERM quit; another launch or a dock click opens the dashboard; closing windows does not quit', () => {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    const { signals, log } = setUp();
    signals.emit(signal);
    assert.deepEqual(log, ['window closable', `stop ${QUIT_GRACE_MS}`], signal);
  }
  const { app, log } = setUp();
  app.emit('second-instance');
  app.emit('activate');
  app.emit('window-all-closed');
  assert.deepEqual(log, ['dashboard', 'dashboard']);
  assert.equal(app.quitted, 0);
});
