/**
 * Which Chromium the browser suite drives, decided from facts gathered elsewhere (see `chromium.ts`), so
 * that a machine with nothing but `npm install` still has one. Order: `CHROMIUM_PATH`, the system's,
 * Playwright's own download, then the Chromium that `@sparticuz/chromium` ships inside its npm package.
 */
import path from 'node:path';

/** Where a chosen Chromium comes from. */
export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | 'playwright' | 'sparticuz';

/** What the decision needs to know about the machine; every question is answered by the caller. */
export interface ChromiumFacts {
  /** `CHROMIUM_PATH` from the environment (unset or empty means not given). */
  chromiumPath: string | undefined;
  /** `PATH` from the environment. */
  searchPath: string | undefined;
  platform: string;
  arch: string;
  /** Whether an executable file sits at this path. */
  isExecutable(file: string): boolean;
  /** Where Playwright keeps its own Chromium download (`chromium.executablePath()`), present or not. */
  playwrightPath(): string | undefined;
}

/** The decision: a binary to use, one to unpack from `@sparticuz/chromium`, or none with the reason. */
export type ChromiumChoice =
  | { kind: 'use'; source: Exclude<ChromiumSource, 'sparticuz'>; path: string; why: string }
  | { kind: 'unpack'; source: 'sparticuz'; why: string }
  | { kind: 'none'; why: string };

/** Debian's package installs here; looked at first even when `/usr/bin` is not on `PATH`. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** Names a system Chromium goes by on `PATH` (Debian, Ubuntu, Google's build). */
export const SYSTEM_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
] as const;

function systemChromium(facts: ChromiumFacts): string | undefined {
  if (facts.isExecutable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const dirs = (facts.searchPath ?? '').split(path.delimiter).filter((dir) => dir !== '');
  for (const name of SYSTEM_NAMES) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (facts.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * Picks the Chromium for the browser suite. A `CHROMIUM_PATH` that names no executable is an error rather
 * than a reason to look elsewhere: whoever set it meant that binary.
 */
export function chooseChromium(facts: ChromiumFacts): ChromiumChoice {
  const given = facts.chromiumPath?.trim();
  if (given) {
    if (facts.isExecutable(given))
      return { kind: 'use', source: 'CHROMIUM_PATH', path: given, why: 'CHROMIUM_PATH is set' };
    return { kind: 'none', why: `CHROMIUM_PATH is set to ${given}, which is not an executable file` };
  }
  const system = systemChromium(facts);
  if (system) return { kind: 'use', source: 'system', path: system, why: 'the system Chromium' };
  const playwright = facts.playwrightPath();
  if (playwright && facts.isExecutable(playwright))
    return { kind: 'use', source: 'playwright', path: playwright, why: 'Playwright’s own download' };
  if (facts.platform === 'linux' && facts.arch === 'x64')
    return {
      kind: 'unpack',
      source: 'sparticuz',
      why: 'no system Chromium and no Playwright download: the one inside the @sparticuz/chromium package',
    };
  return {
    kind: 'none',
    why:
      `no Chromium found (no ${DEBIAN_CHROMIUM}, none of ${SYSTEM_NAMES.join(', ')} on PATH, no Playwright download, ` +
      `and @sparticuz/chromium ships one for Linux x64 only, not ${facts.platform} ${facts.arch}): ` +
      'install Chromium or set CHROMIUM_PATH',
  };
}
