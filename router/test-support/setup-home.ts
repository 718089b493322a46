/** A throwaway HOME for `fcm-router setup` tests, an agent's file placed in it, and the command's options. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SetupOptions } from '../setup/setup-command.js';

/** A router URL nothing answers on: the window stays unknown. */
export const URL_ = 'http://127.0.0.1:1';

/** An agent's existing config: its path under HOME and its text. */
export interface Fixture {
  agent: string;
  file: string;
  text: string;
}

/** Runs `fn` with a new empty HOME, removed after. */
export async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'fcm-setup-'));
  try {
    await fn(home);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** Writes the fixture's file under `home`; resolves with its path. */
export async function place(home: string, fixture: Fixture): Promise<string> {
  const file = path.join(home, fixture.file);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, fixture.text);
  return file;
}

/** `runSetup` options on `home`, collecting what it prints in `out`. */
export function options(home: string, more: Partial<SetupOptions>): SetupOptions & { out: string[] } {
  const out: string[] = [];
  return {
    agent: 'codex',
    undo: false,
    yes: false,
    url: URL_,
    daemon: null,
    env: {},
    home,
    print: (line) => out.push(line),
    printError: (line) => out.push(line),
    confirm: null,
    ...more,
    out,
  };
}
