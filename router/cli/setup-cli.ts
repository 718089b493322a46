/* eslint-disable no-console -- the CLI's job is to print */
/** `fcm-router setup` from the command line: HOME from the environment, a y/N question on a terminal. */
import os from 'node:os';
import { createInterface } from 'node:readline/promises';
import type { CliCommand } from './cli-args.js';
import type { LiveDaemon } from './cli-control.js';
import { runSetup } from '../setup/setup-command.js';

/** Asks on the terminal; "y" or "yes" is a yes. */
async function askTerminal(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}

/** Runs `setup` for the parsed command line, pointing at `daemon` when one runs. */
export function runSetupCommand(
  cmd: Extract<CliCommand, { command: 'setup' }>,
  daemon: LiveDaemon | null,
): Promise<number> {
  return runSetup({
    agent: cmd.agent,
    undo: cmd.undo,
    yes: cmd.yes,
    url: cmd.url,
    daemon: daemon === null ? null : { url: daemon.url, demo: daemon.demo },
    env: process.env,
    home: process.env.HOME ?? process.env.USERPROFILE ?? os.homedir(),
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
    confirm: process.stdin.isTTY && process.stdout.isTTY ? askTerminal : null,
  });
}
