import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
// electron-store is conf plus Electron paths; conf itself runs under plain Node, so the schema is tested
// with the same validator the app uses.
import Conf from 'conf';
import {
  boundsInPrefs,
  PREFS_DEFAULTS,
  PREFS_FILE_NAME,
  PREFS_SCHEMA,
  type DesktopPrefs,
} from './prefs-schema.js';

async function withStore(
  run: (store: Conf<DesktopPrefs>, dir: string) => Promise<void> | void,
): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-prefs-'));
  try {
    const store = new Conf<DesktopPrefs>({
      cwd: dir,
      configName: PREFS_FILE_NAME,
      schema: PREFS_SCHEMA,
      defaults: PREFS_DEFAULTS,
      configFileMode: 0o600,
      clearInvalidConfig: true,
    });
    await run(store, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('defaults: notifications on, no bounds, first run not seen, default port', async () => {
  await withStore((store) => {
    assert.deepEqual({ ...store.store }, PREFS_DEFAULTS);
  });
});

test('valid prefs are written to desktop-prefs.json (never the router config.json), mode 0600', async () => {
  await withStore(async (store, dir) => {
    store.set('windowBounds', { x: -1200, y: 40, width: 1100, height: 700 });
    store.set('notificationsEnabled', false);
    store.set('port', 19281);
    const file = path.join(dir, 'desktop-prefs.json');
    assert.equal(store.path, file);
    const saved = JSON.parse(await readFile(file, 'utf8')) as DesktopPrefs;
    assert.deepEqual(saved.windowBounds, { x: -1200, y: 40, width: 1100, height: 700 });
    assert.equal(saved.port, 19281);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    await assert.rejects(stat(path.join(dir, 'config.json')), { code: 'ENOENT' });
  });
});

test('bad values are refused by the schema', async () => {
  await withStore((store) => {
    assert.throws(() => store.set('notificationsEnabled', 'yes' as unknown as boolean), /schema violation/i);
    assert.throws(() => store.set('port', 80), /schema violation/i);
    assert.throws(() => store.set('windowBounds', { x: 0, y: 0, width: 0, height: 10 }), /schema violation/i);
    assert.throws(
      () => store.set('windowBounds', { x: 0, y: 0, width: 10 } as unknown as DesktopPrefs['windowBounds']),
      /schema violation/i,
    );
  });
});

test('a corrupt prefs file falls back to the defaults instead of stopping the app', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-prefs-'));
  try {
    await writeFile(path.join(dir, 'desktop-prefs.json'), '{ not json');
    const store = new Conf<DesktopPrefs>({
      cwd: dir,
      configName: PREFS_FILE_NAME,
      schema: PREFS_SCHEMA,
      defaults: PREFS_DEFAULTS,
      clearInvalidConfig: true,
    });
    assert.deepEqual({ ...store.store }, PREFS_DEFAULTS);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the window’s bounds are kept in the prefs; a write the schema refuses is a warning, not a throw', async () => {
  await withStore((store) => {
    const warnings: string[] = [];
    const bounds = boundsInPrefs(store, (line) => warnings.push(line));
    assert.deepEqual(bounds.load(), { bounds: null, maximized: false });
    bounds.save({ x: 10, y: 20, width: 800, height: 600 }, true);
    assert.deepEqual(bounds.load(), { bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: true });
    bounds.save({ x: 10, y: 20, width: -5, height: 600 }, false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /window position not saved/);
    assert.deepEqual(bounds.load().bounds, { x: 10, y: 20, width: 800, height: 600 });
  });
});
