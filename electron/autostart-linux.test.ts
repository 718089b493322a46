import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  autostartDir,
  autostartFile,
  desktopEntry,
  disableLinuxAutostart,
  enableLinuxAutostart,
  isLinuxAutostartEnabled,
  linuxLaunchTarget,
  quoteExecArg,
} from './autostart-linux.js';

async function withTempXdg(run: (configHome: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-autostart-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('the autostart folder follows XDG_CONFIG_HOME, ignoring a relative one', () => {
  assert.equal(autostartDir({ env: { XDG_CONFIG_HOME: '/x/cfg' }, homedir: '/home/u' }), '/x/cfg/autostart');
  assert.equal(autostartDir({ env: {}, homedir: '/home/u' }), '/home/u/.config/autostart');
  assert.equal(
    autostartDir({ env: { XDG_CONFIG_HOME: 'rel/cfg' }, homedir: '/home/u' }),
    '/home/u/.config/autostart',
  );
});

test('enable writes a valid entry into a temporary XDG_CONFIG_HOME; disable removes it', async () => {
  await withTempXdg(async (configHome) => {
    const xdg = { env: { XDG_CONFIG_HOME: configHome }, homedir: '/nonexistent' };
    assert.equal(await isLinuxAutostartEnabled(xdg), false);
    const file = await enableLinuxAutostart(xdg, {
      execPath: '/opt/fcm-router/fcm-router',
      args: ['--hidden'],
    });
    assert.equal(file, path.join(configHome, 'autostart', 'fcm-router.desktop'));
    const text = await readFile(file, 'utf8');
    assert.match(text, /^\[Desktop Entry\]\n/);
    assert.match(text, /\nType=Application\n/);
    assert.match(text, /\nExec=\/opt\/fcm-router\/fcm-router --hidden\n/);
    assert.equal((await stat(file)).mode & 0o777, 0o644);
    assert.equal(await isLinuxAutostartEnabled(xdg), true);

    await disableLinuxAutostart(xdg);
    await assert.rejects(stat(file), { code: 'ENOENT' });
    assert.equal(await isLinuxAutostartEnabled(xdg), false);
    await disableLinuxAutostart(xdg); // removing twice is fine
  });
});

test('an entry switched off by the desktop (Hidden=true) counts as disabled', async () => {
  await withTempXdg(async (configHome) => {
    const xdg = { env: { XDG_CONFIG_HOME: configHome }, homedir: '/nonexistent' };
    await enableLinuxAutostart(xdg, { execPath: '/usr/bin/fcm-router', args: [] });
    const file = autostartFile(xdg);
    await writeFile(file, `${await readFile(file, 'utf8')}Hidden=true\n`);
    assert.equal(await isLinuxAutostartEnabled(xdg), false);
  });
});

test('Exec arguments are quoted and escaped per the Desktop Entry spec', () => {
  assert.equal(quoteExecArg('/usr/bin/app'), '/usr/bin/app');
  assert.equal(quoteExecArg('/home/me/My Apps/app'), '"/home/me/My Apps/app"');
  assert.equal(quoteExecArg('a"b$c`d\\e'), '"a\\"b\\$c\\`d\\\\e"');
  assert.equal(quoteExecArg('100%'), '100%%');
  assert.equal(quoteExecArg(''), '""');
  // The value level doubles backslashes once more: a literal backslash ends up as four.
  const entry = desktopEntry({ execPath: '/opt/a\\b/app', args: ['--hidden'] });
  assert.match(entry, /\nExec="\/opt\/a\\\\\\\\b\/app" --hidden\n/);
});

test('an AppImage starts the AppImage file, not its temporary mount; dev passes the app folder', () => {
  assert.deepEqual(
    linuxLaunchTarget({
      env: { APPIMAGE: '/home/u/fcm-router.AppImage' },
      execPath: '/tmp/.mount_x/fcm-router',
      appPath: null,
    }),
    { execPath: '/home/u/fcm-router.AppImage', args: ['--hidden'] },
  );
  assert.deepEqual(
    linuxLaunchTarget({ env: {}, execPath: '/usr/lib/electron/electron', appPath: '/src/fcm' }),
    {
      execPath: '/usr/lib/electron/electron',
      args: ['/src/fcm', '--hidden'],
    },
  );
});
