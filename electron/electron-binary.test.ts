import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { electronPackageDir, locateElectron, type BinaryFs } from './electron-binary.js';

function memoryFs(files: Record<string, string>): BinaryFs {
  return { exists: (f) => f in files, read: (f) => files[f] ?? null };
}

const pkg = '/p/node_modules/electron';

test('a downloaded binary is found through path.txt', () => {
  const fs = memoryFs({
    [`${pkg}/package.json`]: '{}',
    [`${pkg}/path.txt`]: 'electron',
    [`${pkg}/dist/electron`]: '',
  });
  assert.deepEqual(locateElectron(pkg, {}, fs), { ok: true, path: `${pkg}/dist/electron` });
});

test('types-only installs (no path.txt, no dist) say why, without requiring electron', () => {
  const fs = memoryFs({ [`${pkg}/package.json`]: '{}' });
  const result = locateElectron(pkg, {}, fs);
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.reason, /never downloaded/);
  const missing = locateElectron(
    pkg,
    {},
    memoryFs({ [`${pkg}/package.json`]: '{}', [`${pkg}/path.txt`]: 'electron' }),
  );
  assert.match(missing.ok ? '' : missing.reason, /dist\/electron is missing/);
  assert.deepEqual(locateElectron(null, {}, fs), {
    ok: false,
    reason: 'the electron package is not installed',
  });
});

test('ELECTRON_OVERRIDE_DIST_PATH wins, as in the electron package', () => {
  const fs = memoryFs({ [`${pkg}/package.json`]: '{}', '/opt/electron/electron': '' });
  assert.deepEqual(locateElectron(pkg, { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' }, fs), {
    ok: true,
    path: '/opt/electron/electron',
  });
});

test('this checkout: the package is found and the answer is consistent with the folder', () => {
  const dir = electronPackageDir(process.cwd());
  assert.ok(dir && dir.endsWith(path.join('node_modules', 'electron')));
  const result = locateElectron(dir, {});
  // Either answer can be right on a given machine; it must match what is on disk, and looking must not
  // throw or start a download.
  if (result.ok) assert.ok(existsSync(result.path));
  else assert.equal(existsSync(path.join(dir, 'path.txt')) && existsSync(path.join(dir, 'dist')), false);
});
