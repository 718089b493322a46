import { parseArgs } from 'node:util';

export type CliCommand =
  | { command: 'daemon'; port?: number; host?: string; stateDir?: string; configPath?: string; demo: boolean }
  | { command: 'status' | 'stop'; stateDir?: string }
  | {
      command: 'import-fcm';
      file?: string;
      stateDir?: string;
      configPath?: string;
      force: boolean;
      dryRun: boolean;
    }
  | { command: 'help' }
  | { command: 'version' };

export const USAGE = `fcm-router — a local OpenAI-compatible router that only lets real content through

Usage:
  fcm-router daemon [--port 19280] [--host 127.0.0.1] [--state-dir DIR] [--config FILE] [--demo]
  fcm-router status [--state-dir DIR]
  fcm-router stop   [--state-dir DIR]
  fcm-router import-fcm [FILE] [--force] [--dry-run] [--state-dir DIR] [--config FILE]
             (FILE: a free-coding-models config, default ~/.free-coding-models.json)
  fcm-router --version | --help

Environment: FCM_ROUTER_STATE_DIR, FCM_ROUTER_PORT, and provider keys (GROQ_API_KEY, …).
Agents: base URL http://127.0.0.1:19280/v1, model "fcm", any API key.`;

/** Parses the command line; throws an Error with a user-facing message on bad input. */
export function parseCli(argv: readonly string[]): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h')
    return { command: 'help' };
  if (first === '--version' || first === '-v' || first === 'version') return { command: 'version' };
  if (first === 'import-fcm') return parseImport(rest);
  if (first !== 'daemon' && first !== 'status' && first !== 'stop') {
    throw new Error(`unknown command "${first}" (expected daemon, status, stop or import-fcm)`);
  }
  const { values } = parseArgs({
    args: [...rest],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'state-dir': { type: 'string' },
      config: { type: 'string' },
      demo: { type: 'boolean', default: false },
    },
  });
  const stateDir = values['state-dir'];
  if (first !== 'daemon') {
    if (
      values.port !== undefined ||
      values.host !== undefined ||
      values.config !== undefined ||
      values.demo
    ) {
      throw new Error(`"${first}" takes only --state-dir`);
    }
    return { command: first, stateDir };
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535)
      throw new Error(`--port must be a port number (0-65535), got "${values.port}"`);
  }
  return {
    command: 'daemon',
    port,
    host: values.host,
    stateDir,
    configPath: values.config,
    demo: values.demo ?? false,
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
    stateDir: values['state-dir'],
    configPath: values.config,
    force: values.force ?? false,
    dryRun: values['dry-run'] ?? false,
  };
}
