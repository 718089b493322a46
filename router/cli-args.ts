import { parseArgs } from 'node:util';

export type CliCommand =
  | { command: 'daemon'; port?: number; host?: string; stateDir?: string; configPath?: string; demo: boolean }
  | { command: 'status' | 'stop'; stateDir?: string }
  | { command: 'help' }
  | { command: 'version' };

export const USAGE = `fcm-router — a local OpenAI-compatible router that only lets real content through

Usage:
  fcm-router daemon [--port 19280] [--host 127.0.0.1] [--state-dir DIR] [--config FILE] [--demo]
  fcm-router status [--state-dir DIR]
  fcm-router stop   [--state-dir DIR]
  fcm-router --version | --help

Environment: FCM_ROUTER_STATE_DIR, FCM_ROUTER_PORT, and provider keys (GROQ_API_KEY, …).
Agents: base URL http://127.0.0.1:19280/v1, model "fcm", any API key.`;

/** Parses the command line; throws an Error with a user-facing message on bad input. */
export function parseCli(argv: readonly string[]): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h')
    return { command: 'help' };
  if (first === '--version' || first === '-v' || first === 'version') return { command: 'version' };
  if (first !== 'daemon' && first !== 'status' && first !== 'stop') {
    throw new Error(`unknown command "${first}" (expected daemon, status or stop)`);
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
