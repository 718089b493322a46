import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkStaleness, fallbackNotice, isStale, planStart } from './start-or-fallback.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const allStale = { icons: true, renderer: true, main: true };

test('with an Electron binary: build the stale parts, then launch the app', () => {
  assert.deepEqual(planStart({ ok: true, path: '/e/electron' }, allStale), {
    kind: 'electron',
    binary: '/e/electron',
    steps: ['icons', 'renderer', 'main'],
  });
  assert.deepEqual(
    planStart({ ok: true, path: '/e/electron' }, { icons: false, renderer: false, main: true }).steps,
    ['main'],
  );
});

test('without one: one clear line, the dashboard build only, then the daemon', () => {
  const plan = planStart({ ok: false, reason: 'node_modules/electron/path.txt is missing' }, allStale);
  assert.deepEqual(plan, {
    kind: 'daemon',
    notice:
      'fcm-router: no Electron binary on this machine (node_modules/electron/path.txt is missing); running the headless daemon instead.',
    steps: ['renderer'],
  });
  assert.equal(fallbackNotice('x').split('\n').length, 1);
});

test('isStale: missing output, or any source newer than it', () => {
  assert.equal(isStale(null, []), true);
  assert.equal(isStale(100, [50, 99]), false);
  assert.equal(isStale(100, [50, 101]), true);
});

test('checkStaleness compares real files by modification time', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'fcm-start-'));
  try {
    const file = async (rel: string, mtimeSec: number): Promise<void> => {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), 'x');
      await utimes(path.join(root, rel), mtimeSec, mtimeSec);
    };
    await file('scripts/gen-icons.ts', 1000);
    await file('build/icons/tray/tray-green@2x.png', 2000);
    await file('renderer/index.html', 3000);
    await file('renderer/src/app.tsx', 3000);
    await file('dist/renderer/index.html', 2500);
    await file('electron/main.ts', 1000);
    await file('electron/main.test.ts', 9000); // tests do not make the build stale
    await file('router/index.ts', 1000);
    await file('dist/electron/main.js', 2000);
    assert.deepEqual(await checkStaleness(root), { icons: false, renderer: true, main: false });
    await file('router/index.ts', 2001);
    assert.equal((await checkStaleness(root)).main, true);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('npm start without a binary prints the line and runs the daemon with the given arguments', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'fcm-start-'));
  try {
    // A types-only electron package, as CI installs it, and a stand-in daemon.
    await mkdir(path.join(root, 'node_modules', 'electron'), { recursive: true });
    await writeFile(
      path.join(root, 'node_modules', 'electron', 'package.json'),
      '{"name":"electron","version":"45.5.0"}',
    );
    await mkdir(path.join(root, 'bin'));
    await writeFile(
      path.join(root, 'bin', 'fcm-router.js'),
      'console.log("daemon args: " + JSON.stringify(process.argv.slice(2)));\n' +
        'console.log("  dashboard: http://127.0.0.1:19280/");\nprocess.exit(3);\n',
    );
    const driver = path.join(root, 'driver.mjs');
    await writeFile(
      driver,
      `const m = await import(${JSON.stringify(pathToFileURL(path.join(here, 'start-or-fallback.ts')).href)});\n` +
        `process.exitCode = await m.start(${JSON.stringify(root)}, ['--demo'], { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '' });\n`,
    );
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', driver],
        { cwd: path.resolve(here, '..') },
        (error, out) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out }),
      );
    });
    const lines = stdout.trim().split('\n');
    assert.match(
      lines[0] ?? '',
      /^fcm-router: no Electron binary on this machine \(.*\); running the headless daemon instead\.$/,
    );
    assert.equal(lines[1], 'daemon args: ["daemon","--demo"]');
    assert.equal(lines[2], '  dashboard: http://127.0.0.1:19280/');
    assert.equal(code, 3);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
