/* eslint-disable no-console -- the CLI's job is to print */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CliCommand } from './cli-args.js';
import type { BufferedLogger } from './cli-logger.js';
import { resolveStateDir } from '../config/state-dir.js';
import { DaemonRunningError, StateDirError } from '../daemon/daemon-lock.js';
import { installProcessErrorPolicy } from '../daemon/process-error-policy.js';
import { isLoopbackHost } from '../config/loopback.js';
import type { ModelStateView } from '../api-types.js';
import type { RouterHandle } from '../public-types.js';
import { DEFAULT_PORT } from '../config/port-setting.js';
import { ConfigError, startRouter } from '../daemon/start-router.js';
import { ProxyEnvError } from '../upstream/outbound-proxy.js';
import { stopSignalMeaning, stoppingLine } from './stop-signals.js';

type DaemonCommand = Extract<CliCommand, { command: 'daemon' }>;

/**
 * The start banner's line about the config file: where it is, and when there is none yet, that the
 * defaults are in use until a change is saved (a `--config` with a typo then shows at once).
 */
export function configLine(configPath: string, exists: boolean): string {
  const file = path.resolve(configPath);
  return exists ? file : `${file} (not there yet: defaults, written when you save a change)`;
}

/** The lines printed when the daemon listens beyond this machine (`stateDir` holds daemon.json). */
export function remoteWarning(url: string, stateDir: string): string[] {
  return [
    `fcm-router: WARNING: listening on ${url}, reachable from the network:`,
    '  anyone who can reach it can send chat requests through your provider keys, and open the dashboard;',
    '  the management API (/api/*), which the dashboard reads, wants the token on every call. The token is in',
    `  ${stateDir}/daemon.json; open the dashboard as ${url}/#token=<token>.`,
  ];
}

/** `fcm-router daemon`: runs the router until SIGINT, SIGTERM or SIGHUP; resolves to the exit code. */
export async function runDaemon(cmd: DaemonCommand, logger: BufferedLogger): Promise<number> {
  const router = await startOrRefuse(cmd, logger);
  if (typeof router === 'number') return router;
  // Handlers first: a supervisor that signals as soon as it reads the URL line must get a clean stop.
  const stopped = stopOnSignal(router, logger);
  installProcessErrorPolicy({
    source: process,
    logger,
    flush: async () => {
      try {
        await router.stop({ graceMs: 2000 });
      } finally {
        logger.flush();
      }
    },
    exit: (code) => process.exit(code),
  });
  printListening(router, cmd);
  return stopped;
}

/**
 * The started router, or exit code 1 after saying why it refused to start (config, lock, state folder, proxy,
 * port).
 */
async function startOrRefuse(cmd: DaemonCommand, logger: BufferedLogger): Promise<RouterHandle | number> {
  try {
    return await startRouter({
      port: cmd.port,
      host: cmd.host,
      allowRemote: cmd.allowRemote,
      stateDir: cmd.stateDir,
      configPath: cmd.configPath,
      demo: cmd.demo,
      logger,
    });
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof DaemonRunningError ||
      error instanceof StateDirError ||
      error instanceof ProxyEnvError
    ) {
      logger.flush();
      console.error(`fcm-router: refusing to start: ${error.message}`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      console.error(
        `fcm-router: port ${cmd.port ?? DEFAULT_PORT} is already in use (another fcm-router? try "fcm-router status"), or pick one with --port`,
      );
      return 1;
    }
    throw error;
  }
}

/**
 * The started daemon's line about its active set: how many of its models are ready (their provider is
 * enabled and has a key, or needs none), and when none is, what to do: fix the names of models of providers the router does not know, else add a key.
 */
export function activeSetLine(activeSet: string, models: readonly ModelStateView[]): string {
  const inSet = models.filter((m) => m.inActiveSet);
  const ready = inSet.filter((m) => !m.missingKey && m.providerEnabled).length;
  const line = `set "${activeSet}": ${ready} model${ready === 1 ? '' : 's'} ready`;
  if (ready > 0) return line;
  const unknown = inSet.filter((m) => m.blockedBy === 'unknown_model').map((m) => m.key);
  if (unknown.length > 0)
    return `${line} — ${unknown.length} of its models ${unknown.length === 1 ? 'names' : 'name'} no provider the router knows (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', …' : ''}): check the set in config.json`;
  return `${line} — add a provider key (see README) or run with --demo`;
}

/** The lines a started daemon prints: where it listens, its state folder and config file, its set, and a remote warning. */
function printListening(router: RouterHandle, cmd: DaemonCommand): void {
  console.log(
    `fcm-router ${router.version} listening on ${router.url}${cmd.demo ? ' (demo mode: simulated providers)' : ''}`,
  );
  console.log(`  dashboard: ${router.url}/`);
  console.log(`  agents:    base URL ${router.url}/v1, model "fcm", any API key`);
  console.log(`  state:     ${router.stateDir}`);
  console.log(`  config:    ${configLine(router.configPath, existsSync(router.configPath))}`);
  const { activeSet, models } = router.state();
  console.log(`  ${activeSetLine(activeSet, models)}`);
  if (!isLoopbackHost(router.host)) {
    const base = resolveStateDir({
      stateDir: cmd.stateDir,
      env: process.env,
      platform: process.platform,
      homedir: os.homedir(),
    });
    for (const line of remoteWarning(router.url, base)) console.error(line);
  }
}

/**
 * Resolves with the exit code once SIGINT, SIGTERM or SIGHUP stopped the router. Another signal within a
 * second of the first is the same interrupt (npm with bash as its shell passes one Ctrl-C on twice); a later
 * one exits at once (`stop-signals.ts`). SIGHUP is a closed terminal: left to Node's default it would end the
 * process without saving state and leave the lock and `daemon.json` behind.
 */
function stopOnSignal(router: RouterHandle, logger: BufferedLogger): Promise<number> {
  return new Promise((resolve) => {
    let firstAt: number | null = null;
    const onSignal = (signal: NodeJS.Signals): void => {
      const now = Date.now();
      const meaning = stopSignalMeaning(firstAt, now);
      if (meaning === 'same_interrupt') return;
      if (meaning === 'exit_now') {
        console.error('fcm-router: second signal, exiting now');
        process.exit(130);
      }
      firstAt = now;
      logger.info(stoppingLine(signal));
      router
        .stop({ graceMs: 10_000 })
        .then(() => {
          logger.info('stopped');
          resolve(0);
        })
        .catch((error: unknown) => {
          console.error(
            `fcm-router: error while stopping: ${error instanceof Error ? error.message : String(error)}`,
          );
          resolve(1);
        });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
  });
}
