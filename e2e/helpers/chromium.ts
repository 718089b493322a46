/**
 * The browser suite's Chromium: gathers the facts `chooseChromium` decides on, unpacks the
 * `@sparticuz/chromium` binary when that is the choice, and says once which binary runs and why.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { chromium } from 'playwright';
import { chooseChromium, type ChromiumSource } from './find-chromium.js';

/** A Chromium ready to launch. */
export interface FoundChromium {
  path: string;
  source: ChromiumSource;
  why: string;
}

/** Whether an executable regular file sits at `file` (a symlink counts by what it points at). */
export function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function playwrightPath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined; // Playwright knows no download for this platform.
  }
}

/**
 * Unpacks the Chromium inside `@sparticuz/chromium` (to `$TMPDIR/chromium`, once; later calls find it there)
 * and checks that it runs: an unpack cut short leaves a truncated file that the package would hand out again.
 */
async function unpackSparticuz(): Promise<string> {
  const { default: Chromium } = await import('@sparticuz/chromium');
  const file = await Chromium.executablePath();
  const probe = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0) {
    const detail = probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status ?? probe.signal}`);
    throw new Error(
      `${file}, unpacked from @sparticuz/chromium, does not run (${detail}): delete it to unpack afresh`,
    );
  }
  return file;
}

/**
 * Finds the Chromium to drive. Throws with the reason when there is none. Says which one it chose on
 * stdout unless `quiet` (Playwright loads its config again in every worker; the runner speaks for them).
 */
export async function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  options: { quiet?: boolean } = {},
): Promise<FoundChromium> {
  const choice = chooseChromium({
    chromiumPath: env.CHROMIUM_PATH,
    searchPath: env.PATH,
    platform: process.platform,
    arch: process.arch,
    isExecutable,
    playwrightPath,
  });
  if (choice.kind === 'none') throw new Error(`browser suite: ${choice.why}`);
  const found =
    choice.kind === 'use'
      ? { path: choice.path, source: choice.source, why: choice.why }
      : { path: await unpackSparticuz(), source: choice.source, why: choice.why };
  if (!options.quiet) console.log(`browser suite: Chromium ${found.path} (${found.why})`);
  return found;
}
