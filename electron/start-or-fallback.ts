/**
 * `npm start`: builds what is stale and launches the desktop app. Where no Electron binary can be found
 * (CI, a types-only install) it says so in one line and runs the headless daemon instead, which prints
 * the dashboard URL. Run as `node --import tsx electron/start-or-fallback.ts [--demo]`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronPackageDir, locateElectron, type ElectronBinary } from './electron-binary.js';

export type BuildStep = 'icons' | 'renderer' | 'main';

export type StartPlan =
  | { kind: 'electron'; binary: string; steps: BuildStep[] }
  | { kind: 'daemon'; notice: string; steps: BuildStep[] };

/** Which build outputs are older than their sources (or missing). */
export type Staleness = Record<BuildStep, boolean>;

/**
 * What `npm start` does: with an Electron binary, rebuild the stale parts and launch the app; without
 * one, rebuild only the dashboard (the daemon serves it) and run the daemon.
 */
export function planStart(binary: ElectronBinary, stale: Staleness): StartPlan {
  if (binary.ok) {
    return {
      kind: 'electron',
      binary: binary.path,
      steps: (['icons', 'renderer', 'main'] as const).filter((s) => stale[s]),
    };
  }
  return { kind: 'daemon', notice: fallbackNotice(binary.reason), steps: stale.renderer ? ['renderer'] : [] };
}

/** The one line printed when the desktop app cannot start here. */
export function fallbackNotice(reason: string): string {
  return `fcm-router: no Electron binary on this machine (${reason}); running the headless daemon instead.`;
}

/** True when the output is missing or older than its newest source. */
export function isStale(outputMtime: number | null, sourceMtimes: readonly number[]): boolean {
  return outputMtime === null || sourceMtimes.some((mtime) => mtime > outputMtime);
}

async function mtimeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return null;
  }
}

/** Modification times of every file under the given paths (folders walked, node_modules skipped). */
async function sourceMtimes(paths: readonly string[]): Promise<number[]> {
  const times: number[] = [];
  for (const entry of paths) {
    const info = await stat(entry).catch(() => null);
    if (!info) continue;
    if (!info.isDirectory()) {
      times.push(info.mtimeMs);
      continue;
    }
    const children = await readdir(entry, { withFileTypes: true });
    const nested = children
      .filter((child) => child.name !== 'node_modules' && !child.name.endsWith('.test.ts'))
      .map((child) => path.join(entry, child.name));
    times.push(...(await sourceMtimes(nested)));
  }
  return times;
}

/** Compares each build output with its sources under `root`. */
export async function checkStaleness(root: string): Promise<Staleness> {
  const at = (...parts: string[]): string => path.join(root, ...parts);
  const rendererSources = [at('renderer'), at('vite.config.ts')];
  return {
    icons: isStale(
      await mtimeOf(at('build', 'icons', 'tray', 'tray-green@2x.png')),
      await sourceMtimes([at('scripts', 'gen-icons.ts'), at('electron', 'tray-icons.ts')]),
    ),
    renderer:
      existsSync(at('renderer', 'index.html')) &&
      isStale(await mtimeOf(at('dist', 'renderer', 'index.html')), await sourceMtimes(rendererSources)),
    main: isStale(
      await mtimeOf(at('dist', 'electron', 'main.js')),
      await sourceMtimes([at('electron'), at('router'), at('tsconfig.electron.json'), at('tsconfig.json')]),
    ),
  };
}

/** Runs a command with the terminal attached; resolves to its exit code. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: 'inherit',
    });
    // Ctrl-C reaches the child through the process group; the parent waits for it to finish cleanly.
    const onInt = (): void => undefined;
    const onTerm = (): void => void child.kill('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

async function build(step: BuildStep, root: string): Promise<void> {
  const node = process.execPath;
  const commands: Record<BuildStep, string[]> = {
    icons: ['--import', 'tsx', path.join(root, 'scripts', 'gen-icons.ts')],
    renderer: [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    main: [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.electron.json'],
  };
  const code = await run(node, commands[step], { cwd: root });
  if (code !== 0) throw new Error(`building ${step} failed (exit ${code})`);
}

/** The whole of `npm start`; resolves to the exit code. */
export async function start(
  root: string,
  passthrough: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const plan = planStart(locateElectron(electronPackageDir(root), env), await checkStaleness(root));
  if (plan.kind === 'daemon') process.stdout.write(`${plan.notice}\n`);
  for (const step of plan.steps) await build(step, root);
  if (plan.kind === 'daemon') {
    return run(process.execPath, [path.join(root, 'bin', 'fcm-router.js'), 'daemon', ...passthrough], {
      cwd: root,
      env,
    });
  }
  // ELECTRON_RUN_AS_NODE would turn the app into a plain Node process.
  const { ELECTRON_RUN_AS_NODE: _ignored, ...appEnv } = env;
  return run(plan.binary, [root, ...passthrough], { cwd: root, env: appEnv });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  start(root, process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`fcm-router: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
