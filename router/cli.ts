/* eslint-disable no-console -- the CLI's job is to print */
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { parseCli, USAGE } from './cli-args.js';
import { createBufferedLogger } from './cli-logger.js';
import { resolveStateDir } from './config/state-dir.js';
import { readDaemonFile, type DaemonFile } from './daemon-file.js';
import { runImportFcm } from './import/import-command.js';
import { installProcessErrorPolicy } from './process-error-policy.js';
import { packageVersion } from './package-info.js';
import { ConfigError, startRouter } from './start-router.js';

const logger = createBufferedLogger(process.stdout, process.stderr);

async function health(info: DaemonFile): Promise<{ version: string; uptimeMs: number; pid: number } | null> {
  try {
    const res = await request(`${info.url}/health`, { signal: AbortSignal.timeout(2000) });
    const body = (await res.body.json()) as {
      name?: string;
      version?: string;
      uptimeMs?: number;
      pid?: number;
    };
    if (res.statusCode !== 200 || body.name !== 'fcm-router') return null;
    return { version: String(body.version), uptimeMs: Number(body.uptimeMs), pid: Number(body.pid) };
  } catch {
    return null;
  }
}

async function runDaemon(cmd: Extract<ReturnType<typeof parseCli>, { command: 'daemon' }>): Promise<number> {
  let router;
  try {
    router = await startRouter({
      port: cmd.port,
      host: cmd.host,
      stateDir: cmd.stateDir,
      configPath: cmd.configPath,
      demo: cmd.demo,
      logger,
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`fcm-router: refusing to start: ${error.message}`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      console.error(
        `fcm-router: port ${cmd.port ?? process.env.FCM_ROUTER_PORT ?? 19280} is already in use (another fcm-router? try "fcm-router status"), or pick one with --port`,
      );
      return 1;
    }
    throw error;
  }
  console.log(
    `fcm-router ${router.version} listening on ${router.url}${cmd.demo ? ' (demo mode: simulated providers)' : ''}`,
  );
  console.log(`  dashboard: ${router.url}/`);
  console.log(`  agents:    base URL ${router.url}/v1, model "fcm", any API key`);
  console.log(`  state:     ${router.stateDir}`);
  const { activeSet, models } = router.state();
  const ready = models.filter((m) => m.inActiveSet && !m.missingKey && m.providerEnabled).length;
  console.log(
    `  set "${activeSet}": ${ready} model${ready === 1 ? '' : 's'} with keys${ready === 0 ? ' — add a provider key (see README) or run with --demo' : ''}`,
  );
  installProcessErrorPolicy({
    source: process,
    logger,
    flush: () => router.stop({ graceMs: 2000 }),
    exit: (code) => process.exit(code),
  });
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) {
        console.error('fcm-router: second signal, exiting now');
        process.exit(130);
      }
      stopping = true;
      logger.info(`${signal}: finishing in-flight requests and saving state`);
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
  });
}

async function runStatus(stateDir: string, stop: boolean): Promise<number> {
  const info = await readDaemonFile(stateDir);
  const alive = info ? await health(info) : null;
  if (!info || !alive) {
    console.log(`fcm-router is not running (state dir ${stateDir})`);
    return stop ? 0 : 3;
  }
  if (!stop) {
    console.log(
      `fcm-router ${alive.version} running at ${info.url} (pid ${alive.pid}, up ${Math.round(alive.uptimeMs / 1000)} s${info.demo ? ', demo mode' : ''})`,
    );
    return 0;
  }
  process.kill(alive.pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (!(await health(info))) {
      console.log(`fcm-router at ${info.url} stopped`);
      return 0;
    }
  }
  console.error(`fcm-router at ${info.url} (pid ${alive.pid}) did not stop within 15 s`);
  return 1;
}

async function main(argv: readonly string[]): Promise<number> {
  let cmd;
  try {
    cmd = parseCli(argv);
  } catch (error) {
    console.error(`fcm-router: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  switch (cmd.command) {
    case 'help':
      console.log(USAGE);
      return 0;
    case 'version':
      console.log(packageVersion());
      return 0;
    case 'daemon':
      return runDaemon(cmd);
    case 'import-fcm': {
      const stateDir = resolveStateDir({
        stateDir: cmd.stateDir,
        env: process.env,
        platform: process.platform,
        homedir: os.homedir(),
      });
      return runImportFcm({
        file: cmd.file ?? path.join(os.homedir(), '.free-coding-models.json'),
        configPath: cmd.configPath ?? path.join(stateDir, 'config.json'),
        force: cmd.force,
        dryRun: cmd.dryRun,
        print: (line) => console.log(line),
      });
    }
    case 'status':
    case 'stop': {
      const stateDir = resolveStateDir({
        stateDir: cmd.stateDir,
        env: process.env,
        platform: process.platform,
        homedir: os.homedir(),
      });
      return runStatus(stateDir, cmd.command === 'stop');
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    logger.flush();
    process.exit(code);
  },
  (error: unknown) => {
    console.error(`fcm-router: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
