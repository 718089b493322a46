/* eslint-disable no-console -- the CLI's job is to print */
import os from 'node:os';
import path from 'node:path';
import { commandUsage, parseCli, USAGE, type CliCommand } from './cli-args.js';
import { CliRefusal } from './cli-refusal.js';
import { callDaemon, findDaemon, silentHolder, type LiveDaemon } from './cli-control.js';
import { readDaemonState, STATUS_EXIT, statusReport } from './cli-status.js';
import { runDaemon } from './cli-daemon.js';
import { runImportFcm } from './import-command.js';
import { createBufferedLogger } from './cli-logger.js';
import { runReset } from './cli-reset.js';
import { readSecret } from './cli-secret.js';
import { runSetKey } from './cli-set-key.js';
import { runSetupCommand } from './setup-cli.js';
import { API_KEY_MESSAGE, isApiKeyText } from '../config/schema.js';
import { resolveStateDir } from '../config/state-dir.js';
import { processAlive } from '../daemon/daemon-lock.js';
import { packageVersion } from '../daemon/package-info.js';

/** Exit code of the commands that need a running daemon and find none (as `status` has always used). */
const NOT_RUNNING = STATUS_EXIT.notRunning;

type ControlCommand = Exclude<
  CliCommand,
  { command: 'daemon' | 'help' | 'version' | 'import-fcm' | 'set-key' | 'setup' }
>;

/** How long `stop` waits for the daemon to exit: its grace for in-flight requests (10 s), then its saves. */
const STOP_WAIT_MS = 15_000;

/**
 * Sends SIGTERM and waits for the process to be gone, not just for its port to close: the daemon stops
 * listening first, then finishes in-flight requests, saves its state and frees the state folder, so
 * `fcm-router stop && fcm-router daemon` starts at once.
 */
async function runStop(daemon: LiveDaemon): Promise<number> {
  process.kill(daemon.pid, 'SIGTERM');
  console.log(`stopping fcm-router at ${daemon.url} (pid ${daemon.pid}): requests in flight finish first`);
  const deadline = Date.now() + STOP_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (!processAlive(daemon.pid)) {
      console.log(`fcm-router at ${daemon.url} stopped`);
      return 0;
    }
  }
  console.error(
    `fcm-router at ${daemon.url} (pid ${daemon.pid}) did not stop within ${STOP_WAIT_MS / 1000} s`,
  );
  return 1;
}

/** One management call; prints `done` on success, the router's message on failure. */
async function manage(daemon: LiveDaemon, path: string, body: unknown, done: string): Promise<number> {
  const answer = await callDaemon(daemon, 'POST', path, body);
  if (answer.message === null) {
    console.log(done);
    return 0;
  }
  console.error(`fcm-router: ${answer.message}`);
  return 1;
}

function stateDirOf(cmd: { stateDir?: string | undefined }): string {
  return resolveStateDir({
    stateDir: cmd.stateDir,
    env: process.env,
    platform: process.platform,
    homedir: os.homedir(),
  });
}

/**
 * No daemon answered for `stateDir`: not running (`stop` has nothing to do), or a live process holds its
 * lock without answering, which is said with its pid (exit 1: nothing was done).
 */
async function notAnswering(stateDir: string, stopping: boolean): Promise<number> {
  const holder = await silentHolder(stateDir);
  if (holder === null) {
    console.log(`fcm-router is not running (state dir ${stateDir})`);
    return stopping ? 0 : NOT_RUNNING;
  }
  const where = holder.url === null ? '' : ` at ${holder.url}`;
  console.error(
    `fcm-router: process ${holder.pid} holds ${stateDir} but does not answer${where}: it may be suspended, stuck or still starting; if it is an fcm-router you want gone, "kill ${holder.pid}" ends it`,
  );
  return 1;
}

async function runControl(cmd: ControlCommand): Promise<number> {
  const stateDir = stateDirOf(cmd);
  const daemon = await findDaemon(stateDir);
  if (!daemon) return notAnswering(stateDir, cmd.command === 'stop');
  switch (cmd.command) {
    case 'status': {
      const report = statusReport(daemon, await readDaemonState(daemon));
      for (const line of report.lines) console.log(line);
      return report.code;
    }
    case 'stop':
      return runStop(daemon);
    case 'pause':
      return manage(
        daemon,
        '/api/pause',
        { paused: true },
        'routing paused: agents get 503 router_paused until "fcm-router resume"',
      );
    case 'resume':
      return manage(daemon, '/api/pause', { paused: false }, 'routing resumed');
    case 'reset':
      return runReset(daemon, cmd.model);
  }
}

/** The key typed or piped on standard input, or null (the reason printed). */
async function readKey(provider: string): Promise<string | null> {
  let apiKey: string;
  try {
    apiKey = await readSecret(process.stdin, process.stderr, `API key for ${provider} (not shown): `);
  } catch (error) {
    console.error(`fcm-router: no key saved (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
  // An empty read (a closed or forgotten stdin) must not be taken as "remove the key".
  if (apiKey === '') {
    console.error('fcm-router: no key on standard input; nothing saved');
    return null;
  }
  if (!isApiKeyText(apiKey)) {
    console.error(`fcm-router: not saved: ${API_KEY_MESSAGE}`);
    return null;
  }
  return apiKey;
}

async function main(argv: readonly string[]): Promise<number> {
  let cmd;
  try {
    cmd = parseCli(argv, process.env);
  } catch (error) {
    // A refusal of a known command's arguments shows that command's usage; anything else, every command's.
    const usage = error instanceof CliRefusal ? commandUsage(error.command) : USAGE;
    console.error(`fcm-router: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  switch (cmd.command) {
    case 'help':
      console.log(cmd.topic ? commandUsage(cmd.topic) : USAGE);
      return 0;
    case 'version':
      console.log(packageVersion());
      return 0;
    case 'daemon': {
      const logger = createBufferedLogger(process.stdout, process.stderr);
      try {
        return await runDaemon(cmd, logger);
      } finally {
        logger.flush();
      }
    }
    case 'import-fcm': {
      const stateDir = stateDirOf(cmd);
      return runImportFcm({
        file: cmd.file ?? path.join(os.homedir(), '.free-coding-models.json'),
        configPath: cmd.configPath,
        stateDir,
        daemon: await findDaemon(stateDir),
        force: cmd.force,
        dryRun: cmd.dryRun,
        env: process.env,
        print: (line) => console.log(line),
      });
    }
    case 'set-key': {
      const apiKey = await readKey(cmd.provider);
      if (apiKey === null) return 1;
      const stateDir = stateDirOf(cmd);
      return runSetKey({
        provider: cmd.provider,
        apiKey,
        configPath: cmd.configPath,
        stateDir,
        daemon: await findDaemon(stateDir),
        print: (line) => console.log(line),
        printError: (line) => console.error(line),
      });
    }
    case 'setup':
      return runSetupCommand(cmd, await findDaemon(stateDirOf(cmd)));
    default:
      return runControl(cmd);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`fcm-router: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
