/**
 * The offline packaging check: builds the main process, the dashboard and the icons into a temporary copy
 * of the app, runs `electron-builder --linux dir` against a stub Electron (no download), and checks that
 * app.asar holds the router, the renderer and the tray icons, that dev-only packages stay out, and that
 * the security fuses were flipped. Leaves the checkout untouched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFile, listPackage } from '@electron/asar';
import { generateIcons } from '../scripts/gen-icons.js';
import { APP_ID, GUI_EXECUTABLE_NAME } from './app-identity.js';
import { TRAY_COLOURS, trayIconName } from './tray-icons.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (...parts: string[]): string => path.join(root, 'node_modules', ...parts);

/** @electron/fuses finds the fuse wire after this marker in the Electron binary. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_NAMES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;

function runNode(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { ...options, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({
        code: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0,
        output: `${stdout}${stderr}`,
      }),
    );
  });
}

/** A stand-in for the Electron binary: just the fuse wire, as a real one carries it (Electron's defaults). */
async function stubElectron(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const wire = Buffer.from([1, FUSE_NAMES.length, ...'11110001'.split('').map((c) => c.charCodeAt(0))]);
  await writeFile(path.join(dir, 'electron'), Buffer.concat([Buffer.from(`stub\0${FUSE_SENTINEL}`), wire]));
  await chmod(path.join(dir, 'electron'), 0o755);
  await writeFile(path.join(dir, 'version'), '45.5.0');
}

function readFuses(binary: Buffer): Record<string, boolean> {
  const at = binary.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
  return Object.fromEntries(FUSE_NAMES.map((name, i) => [name, binary[at + 2 + i] === '1'.charCodeAt(0)]));
}

test('electron-builder --dir packs the router, the dashboard and the icons into app.asar', async (t) => {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'fcm-pack-'));
  try {
    const app = path.join(tmp, 'app');
    await mkdir(path.join(app, 'build'), { recursive: true });
    await copyFile(path.join(root, 'package.json'), path.join(app, 'package.json'));
    await copyFile(
      path.join(root, 'build', 'electron-builder.yml'),
      path.join(app, 'build', 'electron-builder.yml'),
    );
    await symlink(path.join(root, 'node_modules'), path.join(app, 'node_modules'), 'dir');

    const tsc = await runNode(
      [bin('typescript', 'bin', 'tsc'), '-p', 'tsconfig.electron.json', '--outDir', path.join(app, 'dist')],
      {
        cwd: root,
      },
    );
    assert.equal(tsc.code, 0, `tsc -p tsconfig.electron.json failed:\n${tsc.output}`);

    const rendererOut = path.join(app, 'dist', 'renderer');
    if (existsSync(path.join(root, 'renderer', 'index.html'))) {
      const vite = await runNode(
        [
          bin('vite', 'bin', 'vite.js'),
          'build',
          '--outDir',
          rendererOut,
          '--emptyOutDir',
          '--logLevel',
          'warn',
        ],
        {
          cwd: root,
        },
      );
      assert.equal(vite.code, 0, `vite build failed:\n${vite.output}`);
    } else {
      t.diagnostic('no renderer/ sources yet: packing a placeholder dashboard in the temporary copy');
      await mkdir(rendererOut, { recursive: true });
      await writeFile(path.join(rendererOut, 'index.html'), '<!doctype html><title>fcm-router</title>');
    }
    await generateIcons(path.join(app, 'build', 'icons'));

    const stub = path.join(tmp, 'electron-stub');
    await stubElectron(stub);
    const release = path.join(tmp, 'release');
    const builder = await runNode(
      [
        bin('electron-builder', 'cli.js'),
        '--linux',
        'dir',
        '--projectDir',
        app,
        '--config',
        'build/electron-builder.yml',
        `-c.electronDist=${stub}`,
        '-c.electronVersion=45.5.0',
        `-c.directories.output=${release}`,
      ],
      // The temporary app's node_modules is a symlink into the checkout, which `npm ls` (electron-builder's
      // default collector) reports as extraneous; its plain node_modules traversal follows it correctly.
      { cwd: app, env: { ...process.env, npm_config_user_agent: 'traversal', CI: '1' } },
    );
    assert.equal(builder.code, 0, `electron-builder failed:\n${builder.output}`);

    const asar = path.join(release, 'linux-unpacked', 'resources', 'app.asar');
    assert.ok(existsSync(asar), 'release/linux-unpacked/resources/app.asar exists');
    const files = new Set(
      listPackage(asar, { isPack: false }).map((entry) => entry.split(path.sep).join('/')),
    );
    const expected = [
      '/package.json',
      '/dist/electron/main.js',
      '/dist/electron/preload.cjs',
      '/dist/router/index.js',
      '/dist/router/daemon/start-router.js',
      '/dist/renderer/index.html',
      '/build/icons/icon.png',
      ...TRAY_COLOURS.flatMap((colour) =>
        [trayIconName(colour), trayIconName(colour, true)].flatMap((name) => [
          `/build/icons/tray/${name}`,
          `/build/icons/tray/${name.replace('.png', '@2x.png')}`,
        ]),
      ),
      '/node_modules/electron-store/package.json',
      '/node_modules/conf/package.json',
      '/node_modules/zod/package.json',
      '/node_modules/undici/package.json',
      '/node_modules/eventsource-parser/package.json',
    ];
    for (const file of expected) assert.ok(files.has(file), `app.asar contains ${file}`);
    for (const prefix of [
      '/node_modules/react/',
      '/node_modules/electron/',
      '/node_modules/vite/',
      '/node_modules/tsx/',
    ]) {
      assert.ok(![...files].some((f) => f.startsWith(prefix)), `app.asar leaves out ${prefix}`);
    }
    assert.ok(
      ![...files].some((f) => f.endsWith('.test.js') || f.includes('/electron/testing/')),
      'no tests packed',
    );
    assert.ok(
      ![...files].some((f) => f.startsWith('/electron/') || f.startsWith('/router/')),
      'no TypeScript sources',
    );

    const manifest = JSON.parse(extractFile(asar, 'package.json').toString('utf8')) as { main?: string };
    assert.equal(manifest.main, 'dist/electron/main.js');

    const fuses = readFuses(await readFile(path.join(release, 'linux-unpacked', GUI_EXECUTABLE_NAME)));
    assert.deepEqual(fuses, {
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});

test('the builder appId is the one main gives Windows for notifications', async () => {
  const yml = await readFile(path.join(root, 'build', 'electron-builder.yml'), 'utf8');
  assert.equal(/^appId:\s*(\S+)\s*$/m.exec(yml)?.[1], APP_ID);
});

test('the GUI executable is named apart from the CLI, and the desktop entry matches what Electron reports', async () => {
  const yml = await readFile(path.join(root, 'build', 'electron-builder.yml'), 'utf8');
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    desktopName: string;
  };
  assert.equal(/^executableName:\s*(\S+)\s*$/m.exec(yml)?.[1], GUI_EXECUTABLE_NAME);
  const linux = /^linux:\n((?: {2}.*\n|\s*\n)+)/m.exec(yml)?.[1] ?? '';
  assert.equal(/^ {2}executableName:\s*(\S+)\s*$/m.exec(linux)?.[1], GUI_EXECUTABLE_NAME);
  assert.match(linux, /^ {2}syncDesktopName: true$/m);
  assert.ok(!Object.hasOwn(pkg.bin, GUI_EXECUTABLE_NAME), 'no CLI command of that name');
  // Electron names its windows after desktopName; the .deb names its .desktop file after it (syncDesktopName).
  assert.equal(pkg.desktopName, `${GUI_EXECUTABLE_NAME}.desktop`);
});
