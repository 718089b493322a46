import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { findChromium, isExecutable } from './chromium.js';
import { chooseChromium, DEBIAN_CHROMIUM, type ChromiumChoice, type ChromiumFacts } from './find-chromium.js';

const PLAYWRIGHT = '/root/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';

/** A Linux x64 machine with nothing installed but the executables named. */
function machine(executables: string[], overrides: Partial<ChromiumFacts> = {}): ChromiumFacts {
  const present = new Set(executables);
  return {
    chromiumPath: undefined,
    searchPath: '/usr/local/bin:/usr/bin:/bin',
    platform: 'linux',
    arch: 'x64',
    isExecutable: (file) => present.has(file),
    playwrightPath: () => PLAYWRIGHT,
    ...overrides,
  };
}

const usedPath = (choice: ChromiumChoice): string | undefined =>
  choice.kind === 'use' ? choice.path : undefined;

test('CHROMIUM_PATH wins over every other Chromium on the machine', () => {
  const facts = machine(['/opt/mine/chrome', DEBIAN_CHROMIUM, PLAYWRIGHT], {
    chromiumPath: '/opt/mine/chrome',
  });
  assert.deepEqual(chooseChromium(facts), {
    kind: 'use',
    source: 'CHROMIUM_PATH',
    path: '/opt/mine/chrome',
    why: 'CHROMIUM_PATH is set',
  });
});

test('a CHROMIUM_PATH that names no executable is an error naming it, not a reason to look elsewhere', () => {
  const choice = chooseChromium(machine([DEBIAN_CHROMIUM], { chromiumPath: '/nowhere/chrome' }));
  assert.equal(choice.kind, 'none');
  assert.match(choice.why, /CHROMIUM_PATH is set to \/nowhere\/chrome, which is not an executable file/);
});

test('an empty CHROMIUM_PATH counts as unset', () => {
  const choice = chooseChromium(machine([DEBIAN_CHROMIUM], { chromiumPath: '  ' }));
  assert.deepEqual(choice, {
    kind: 'use',
    source: 'system',
    path: DEBIAN_CHROMIUM,
    why: 'the system Chromium',
  });
});

test('Debian’s /usr/bin/chromium is found even when /usr/bin is not on PATH', () => {
  const choice = chooseChromium(machine([DEBIAN_CHROMIUM, PLAYWRIGHT], { searchPath: '/opt/bin' }));
  assert.equal(usedPath(choice), DEBIAN_CHROMIUM);
});

test('other system names are looked up on PATH, by name first, then directory order', () => {
  const facts = machine(
    ['/snap/bin/chromium-browser', '/usr/local/bin/google-chrome', '/usr/bin/google-chrome'],
    {
      searchPath: '/usr/local/bin::/snap/bin:/usr/bin',
    },
  );
  assert.deepEqual(chooseChromium(facts), {
    kind: 'use',
    source: 'system',
    path: '/snap/bin/chromium-browser',
    why: 'the system Chromium',
  });
  const chromeOnly = machine(['/usr/local/bin/google-chrome', '/usr/bin/google-chrome']);
  assert.equal(usedPath(chooseChromium(chromeOnly)), '/usr/local/bin/google-chrome');
});

test('with no system Chromium, Playwright’s own download is used when it is there', () => {
  assert.deepEqual(chooseChromium(machine([PLAYWRIGHT])), {
    kind: 'use',
    source: 'playwright',
    path: PLAYWRIGHT,
    why: 'Playwright’s own download',
  });
});

test('with no system Chromium and no download, Linux x64 unpacks the one inside @sparticuz/chromium', () => {
  const choice = chooseChromium(machine([]));
  assert.equal(choice.kind, 'unpack');
  const unknown = chooseChromium(machine([], { playwrightPath: () => undefined, searchPath: undefined }));
  assert.equal(unknown.kind, 'unpack');
});

test('elsewhere with nothing found, the reason says what was looked for and what to do', () => {
  const choice = chooseChromium(machine([], { arch: 'arm64' }));
  assert.equal(choice.kind, 'none');
  assert.match(choice.why, /no \/usr\/bin\/chromium/);
  assert.match(choice.why, /chromium-browser/);
  assert.match(choice.why, /Linux x64 only, not linux arm64/);
  assert.match(choice.why, /set CHROMIUM_PATH/);
});

test('findChromium takes an executable CHROMIUM_PATH as it is and refuses a file that cannot run', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-find-chromium-'));
  try {
    const binary = path.join(dir, 'chrome');
    await writeFile(binary, '#!/bin/sh\n');
    assert.equal(isExecutable(binary), false, 'not executable yet');
    await assert.rejects(
      findChromium({ CHROMIUM_PATH: binary }, { quiet: true }),
      /browser suite: CHROMIUM_PATH is set to .*chrome, which is not an executable file/,
    );
    await chmod(binary, 0o755);
    assert.equal(isExecutable(dir), false, 'a directory is not a binary');
    assert.deepEqual(await findChromium({ CHROMIUM_PATH: binary }, { quiet: true }), {
      path: binary,
      source: 'CHROMIUM_PATH',
      why: 'CHROMIUM_PATH is set',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
