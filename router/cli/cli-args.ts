import { parseArgs } from 'node:util';
import { parsePort, portFromEnv } from '../config/port-setting.js';
import { isLoopbackHost } from '../config/loopback.js';
import { routerOrigin } from '../setup/router-target.js';
import { CliRefusal, refusalWords } from './cli-refusal.js';

/** Every command, in the order the usage lists them. */
export const COMMANDS = [
  'daemon',
  'status',
  'stop',
  'pause',
  'resume',
  'reset',
  'set-key',
  'import-fcm',
  'setup',
] as const;
export type CommandName = (typeof COMMANDS)[number];

export type CliCommand =
  | {
      command: 'daemon';
      port?: number;
      host?: string;
      stateDir?: string;
      configPath?: string;
      demo: boolean;
      allowRemote: boolean;
    }
  | { command: 'status' | 'stop' | 'pause' | 'resume'; stateDir?: string }
  | { command: 'reset'; model: string; stateDir?: string }
  | { command: 'set-key'; provider: string; stateDir?: string; configPath?: string }
  | {
      command: 'import-fcm';
      file?: string;
      stateDir?: string;
      configPath?: string;
      force: boolean;
      dryRun: boolean;
    }
  | {
      command: 'setup';
      agent: string;
      undo: boolean;
      yes: boolean;
      url?: string;
      stateDir?: string;
    }
  | { command: 'help'; topic?: CommandName }
  | { command: 'version' };

const STATE_DIR_LINE =
  '  --state-dir DIR   the daemon’s state folder (default: FCM_ROUTER_STATE_DIR, then the per-user one)';

const USAGES: Record<CommandName, string> = {
  daemon: `fcm-router daemon [--port 19280] [--host 127.0.0.1] [--allow-remote] [--state-dir DIR] [--config FILE] [--demo]

Runs the router in the foreground until Ctrl-C, SIGTERM or SIGHUP. One daemon per state folder.
  --port N          port to listen on (0 picks a free one; default FCM_ROUTER_PORT, then 19280)
  --host ADDR       address to listen on (default 127.0.0.1)
  --allow-remote    required for a --host other than loopback: the chat API, the dashboard and its
                    management API become reachable from the network (the management API then needs
                    the token on every call)
${STATE_DIR_LINE}
  --config FILE     config file (default <state folder>/config.json)
  --demo            simulated providers, no keys needed; state and config apart in <state folder>/demo
                    (not with --config)`,
  status: `fcm-router status [--state-dir DIR]

Says whether a daemon serves this state folder, where, since when, and the router's health verdict
(level, why, the next model, paused). Exit 0 routing, 1 state unreadable, 3 not running, 4 nothing
routable or the newest agent requests all failed, 5 paused.
${STATE_DIR_LINE}`,
  stop: `fcm-router stop [--state-dir DIR]

Stops the daemon of this state folder: in-flight requests finish, state is saved.
${STATE_DIR_LINE}`,
  pause: `fcm-router pause [--state-dir DIR]

Pauses routing: agents get 503 router_paused until "fcm-router resume".
${STATE_DIR_LINE}`,
  resume: `fcm-router resume [--state-dir DIR]

Resumes routing after "fcm-router pause".
${STATE_DIR_LINE}`,
  reset: `fcm-router reset <provider/model> [--state-dir DIR]

Closes one model's breaker and lifts its quota pause, so the next request may use it.
${STATE_DIR_LINE}`,
  'set-key': `fcm-router set-key <provider> [--state-dir DIR] [--config FILE]

Stores a provider's API key in the config: through the running daemon, which uses it at once, or in the
file when no daemon runs on it (a demo runs on its own config). The key is read from standard input
(typed with echo off, or piped: printf '%s' "$KEY" | fcm-router set-key groq) and never printed. An
empty input saves nothing.
${STATE_DIR_LINE}
  --config FILE     config file to change (default <state folder>/config.json)`,
  'import-fcm': `fcm-router import-fcm [FILE] [--force] [--dry-run] [--state-dir DIR] [--config FILE]

Reads a free-coding-models config (FILE, default ~/.free-coding-models.json): provider keys, providers
switched off and router sets, mapped onto this router's providers. Prints what it changes (keys as
fingerprints); keeps what the config has already unless --force; writes nothing with --dry-run.
${STATE_DIR_LINE}
  --config FILE     config file to change (default <state folder>/config.json)`,
  setup: `fcm-router setup <agent> [--yes] [--undo] [--url URL] [--state-dir DIR]

Points an agent's own config at the router: claude-code (~/.claude/settings.json), codex
(~/.codex/config.toml), opencode (~/.config/opencode/opencode.json), qwen-code (~/.qwen/settings.json),
continue (~/.continue/config.yaml).
Shows the change first and writes it only with --yes (or a "y" on a terminal), keeping a backup beside the
file (<file>.fcm-router.bak); changes nothing else in the file.
  --yes             write without asking
  --undo            put the file back as it was (from the backup, or remove only fcm-router's settings)
  --url URL         the router's URL (default: the running daemon's, else http://127.0.0.1:19280)
${STATE_DIR_LINE}`,
};

export const USAGE = `fcm-router — a local OpenAI-compatible router that only lets real content through

Usage:
${COMMANDS.map((command) => `  ${(USAGES[command].split('\n')[0] ?? '').trim()}`).join('\n')}
  fcm-router <command> --help
  fcm-router --version | --help

Environment: FCM_ROUTER_STATE_DIR, FCM_ROUTER_PORT, and provider keys (GROQ_API_KEY, …).
Agents: base URL http://127.0.0.1:19280/v1, model "fcm", any API key.`;

/** The usage of one command. */
export function commandUsage(command: CommandName): string {
  return `Usage: ${USAGES[command]}`;
}

function isCommand(value: string): value is CommandName {
  return (COMMANDS as readonly string[]).includes(value);
}

/** One positional argument named `what`, exactly. */
function onlyPositional(command: CommandName, positionals: readonly string[], what: string): string {
  const [first, ...more] = positionals;
  if (first === undefined || first === '') throw new Error(`"${command}" needs ${what}`);
  if (more.length > 0) throw new Error(`"${command}" takes one ${what.replace(/^an? /, '')}`);
  return first;
}

/**
 * The folder or file `--state-dir` or `--config` names, undefined when the flag is left out. One naming
 * nothing (`--config ''`, an unset variable in a script) is refused: taken as left out, it would send the
 * command to the default folder or file in silence.
 */
function pathOption(
  values: Readonly<Record<string, unknown>>,
  flag: 'state-dir' | 'config',
): string | undefined {
  const value = values[flag];
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '')
    throw new Error(
      `--${flag} needs a ${flag === 'config' ? 'file' : 'folder'}, got ${JSON.stringify(value)}`,
    );
  return value;
}

/**
 * Parses the command line, with the environment's defaults for options left out (`FCM_ROUTER_PORT`);
 * throws a {@link CliRefusal} (or, for no known command, an Error) with a user-facing message on bad input.
 */
export function parseCli(argv: readonly string[], env: Record<string, string | undefined> = {}): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h') return { command: 'help' };
  if (first === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { command: 'help' };
    if (!isCommand(topic)) throw new Error(`unknown command "${topic}" (expected ${COMMANDS.join(', ')})`);
    return { command: 'help', topic };
  }
  if (first === '--version' || first === '-v' || first === 'version') return { command: 'version' };
  if (!isCommand(first)) throw new Error(`unknown command "${first}" (expected ${COMMANDS.join(', ')})`);
  // Help wins over every other problem on the line: asking how to use a command never fails.
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help', topic: first };
  try {
    return parseCommand(first, rest, env);
  } catch (error) {
    throw new CliRefusal(refusalWords(error, first), first);
  }
}

function parseCommand(
  command: CommandName,
  args: readonly string[],
  env: Record<string, string | undefined>,
): CliCommand {
  if (command === 'import-fcm') return parseImport(args);
  if (command === 'setup') return parseSetup(args, env);
  if (command === 'daemon') return parseDaemon(args, env);
  return parseStateCommand(command, args);
}

/** `status`, `stop`, `pause`, `resume`, `reset MODEL` and `set-key PROVIDER [--config FILE]`, with `--state-dir`. */
function parseStateCommand(
  command: Exclude<CommandName, 'daemon' | 'import-fcm' | 'setup'>,
  args: readonly string[],
): CliCommand {
  const { values, positionals } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: command === 'reset' || command === 'set-key',
    options: {
      'state-dir': { type: 'string' },
      ...(command === 'set-key' ? { config: { type: 'string' as const } } : {}),
    },
  });
  const stateDir = pathOption(values, 'state-dir');
  if (command === 'reset')
    return { command, model: onlyPositional(command, positionals, 'a model (provider/model)'), stateDir };
  if (command === 'set-key') {
    const provider = onlyPositional(command, positionals, 'a provider id');
    const configPath = pathOption(values, 'config');
    return { command, provider, stateDir, configPath };
  }
  return { command, stateDir };
}

/**
 * `daemon [--port N] [--host ADDR] [--allow-remote] [--state-dir DIR] [--config FILE] [--demo]`; the port
 * is `--port`, else `FCM_ROUTER_PORT` (undefined for neither), each refused when it is no port.
 */
function parseDaemon(args: readonly string[], env: Record<string, string | undefined>): CliCommand {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'state-dir': { type: 'string' },
      config: { type: 'string' },
      demo: { type: 'boolean', default: false },
      'allow-remote': { type: 'boolean', default: false },
    },
  });
  const port = values.port === undefined ? portFromEnv(env) : parsePort(values.port);
  if (port === null) throw new Error(`--port must be a port number (0-65535), got "${values.port}"`);
  const allowRemote = values['allow-remote'] ?? false;
  if (values.host !== undefined && !isLoopbackHost(values.host) && !allowRemote) {
    throw new Error(
      `--host ${values.host} is not a loopback address: add --allow-remote to accept connections from the network`,
    );
  }
  // The demo's simulated agent would send traffic through the real providers of a real config, and its
  // saves would replace that file with the demo's providers: the demo keeps its own config.
  if (values.demo === true && values.config !== undefined) {
    throw new Error(
      '--demo and --config cannot be used together: the demo keeps its own config in <state folder>/demo/config.json (pick the folder with --state-dir)',
    );
  }
  return {
    command: 'daemon',
    port,
    host: values.host,
    stateDir: pathOption(values, 'state-dir'),
    configPath: pathOption(values, 'config'),
    demo: values.demo ?? false,
    allowRemote,
  };
}

/** `import-fcm [FILE] [--force] [--dry-run] [--state-dir DIR] [--config FILE]` */
function parseImport(args: readonly string[]): CliCommand {
  const { values, positionals } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      force: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
      config: { type: 'string' },
    },
  });
  if (positionals.length > 1) throw new Error('"import-fcm" takes one file at most');
  return {
    command: 'import-fcm',
    file: positionals[0],
    stateDir: pathOption(values, 'state-dir'),
    configPath: pathOption(values, 'config'),
    force: values.force ?? false,
    dryRun: values['dry-run'] ?? false,
  };
}

/**
 * `setup <agent> [--yes] [--undo] [--url URL] [--state-dir DIR]`; a `--url` that is no router address, or
 * without one an `FCM_ROUTER_PORT` that is no port, is refused like any bad command line.
 */
function parseSetup(args: readonly string[], env: Record<string, string | undefined>): CliCommand {
  const { values, positionals } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      yes: { type: 'boolean', short: 'y', default: false },
      undo: { type: 'boolean', default: false },
      url: { type: 'string' },
      'state-dir': { type: 'string' },
    },
  });
  const agent = onlyPositional('setup', positionals, 'an agent');
  if (values.url === undefined) portFromEnv(env);
  else routerOrigin(values.url);
  return {
    command: 'setup',
    agent,
    undo: values.undo ?? false,
    yes: values.yes ?? false,
    url: values.url,
    stateDir: pathOption(values, 'state-dir'),
  };
}
