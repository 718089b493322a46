import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A router daemon running as a child process, as users run it. */
export interface Daemon {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stateDir: string;
  configPath: string;
  /** Everything the daemon printed so far (for failure messages). */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after a grace period) and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Provider key variables from the developer's shell must not leak into the test's catalogue. */
function cleanEnv(): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !/(_API_KEY|_TOKEN|_ACCESS_TOKEN|_ACCOUNT_ID)$/.test(name) && name !== 'FCM_ROUTER_PORT',
      ),
    ),
    // Model lists are fetched when a spec asks, never by the daily schedule in the middle of one.
    FCM_ROUTER_DISCOVERY_TICK_MS: '0',
  };
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export interface DaemonOptions {
  /** @default 30 000 */
  timeoutMs?: number;
  /** @default a free one */
  port?: number;
  /** More environment for the daemon. HOME is an empty folder of its own unless given here. */
  env?: Record<string, string>;
  /** State files written into the state folder before the daemon starts (name → JSON value). */
  stateFiles?: Record<string, unknown>;
  /** `--demo`: the simulated providers on the demo's own config (the config given is then not used). */
  demo?: boolean;
  /** `--allow-remote`, still on 127.0.0.1: the management API then wants the token on reads too. */
  allowRemote?: boolean;
}

/**
 * Starts `fcm-router daemon` on a free port (or `options.port`, to come back where a stopped one was) with a
 * temporary state folder and the given config file contents, and resolves once it prints its listening URL.
 */
export async function startDaemon(config: unknown, options: DaemonOptions = {}): Promise<Daemon> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-e2e-'));
  const stateDir = path.join(dir, 'state');
  const configPath = path.join(dir, 'config.json');
  await writeFile(configPath, JSON.stringify(config, null, 2), { mode: 0o600 });
  await mkdir(stateDir, { recursive: true });
  for (const [name, value] of Object.entries(options.stateFiles ?? {}))
    await writeFile(path.join(stateDir, name), JSON.stringify(value), { mode: 0o600 });
  const child = spawn(
    process.execPath,
    [
      'bin/fcm-router.js',
      'daemon',
      '--port',
      String(options.port ?? 0),
      '--host',
      '127.0.0.1',
      '--state-dir',
      stateDir,
      ...(options.demo === true ? ['--demo'] : ['--config', configPath]),
      ...(options.allowRemote === true ? ['--allow-remote'] : []),
    ],
    {
      cwd: repoRoot,
      // A HOME of its own: the Overview's Set up panel reads the agents' files there, never the developer's.
      env: { ...cleanEnv(), HOME: path.join(dir, 'home'), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    child.kill('SIGTERM');
    if (!(await exited(child, 12_000))) {
      child.kill('SIGKILL');
      await exited(child, 5000);
    }
    await rm(dir, { recursive: true, force: true });
  };

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`daemon did not start in ${timeoutMs} ms:\n${log}`)),
      timeoutMs,
    );
    const check = (): void => {
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (match && Number(match[1]) > 0) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited with ${code} before listening:\n${log}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });

  return { url, stateDir, configPath, output: () => log, stop };
}
