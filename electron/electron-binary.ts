import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

/** File access, injected so the lookup is tested without a real Electron. */
export interface BinaryFs {
  exists(file: string): boolean;
  read(file: string): string | null;
}

const realFs: BinaryFs = {
  exists: existsSync,
  read: (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  },
};

/**
 * Finds the Electron executable the way the `electron` package does (`path.txt` under its folder, or
 * `ELECTRON_OVERRIDE_DIST_PATH`), without ever requiring the package: requiring it with no binary starts
 * a download and then throws "Electron failed to install correctly".
 *
 * @param packageDir the folder of the `electron` npm package, or null when it is not installed
 */
export function locateElectron(
  packageDir: string | null,
  env: Record<string, string | undefined>,
  fs: BinaryFs = realFs,
): ElectronBinary {
  if (!packageDir || !fs.exists(path.join(packageDir, 'package.json'))) {
    return { ok: false, reason: 'the electron package is not installed' };
  }
  const relative = fs.read(path.join(packageDir, 'path.txt'))?.trim() || null;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const file = path.join(override, relative ?? 'electron');
    return fs.exists(file) ? { ok: true, path: file } : { ok: false, reason: `${file} does not exist` };
  }
  if (!relative) {
    return {
      ok: false,
      reason: 'the Electron binary was never downloaded: node_modules/electron/path.txt is missing',
    };
  }
  const file = path.join(packageDir, 'dist', relative);
  return fs.exists(file) ? { ok: true, path: file } : { ok: false, reason: `${file} is missing` };
}

/** The `electron` package folder as seen from `fromDir`, or null. Resolves its package.json only. */
export function electronPackageDir(fromDir: string): string | null {
  try {
    const require = createRequire(path.join(fromDir, 'noop.js'));
    return path.dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}
