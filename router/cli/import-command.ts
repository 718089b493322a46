/**
 * `fcm-router import-fcm [file]`: takes the keys, disabled providers and sets of a free-coding-models config
 * into this router's config, printing each change (keys by fingerprint only). What the config has already
 * is kept unless `--force`; `--dry-run` writes nothing; an import that would leave an invalid config writes
 * nothing either. With a daemon running on the config, the daemon (its one writer) merges the import into
 * the config in use and applies it at once; otherwise the file is written here, through the same guard.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { daemonOwnsConfig, type LiveDaemon } from './cli-control.js';
import {
  describeWriteError,
  loadConfigFile,
  validateConfig,
  writeConfigGuarded,
  type GuardedWrite,
} from '../config/config-store.js';
import { parseFcmConfig, type FcmConfig } from '../import/fcm-config.js';
import { importThroughDaemon } from './import-through-daemon.js';
import { knownProviders, planImport } from '../import/import-plan.js';
import { resolveConfig } from '../config/resolve-config.js';
import { reportIssues } from '../import/import-report.js';

export interface ImportOptions {
  /** The free-coding-models config to read. */
  file: string;
  /** This router's config file (`--config`), or undefined for the state folder's. */
  configPath: string | undefined;
  /** The state folder: its `config.json` is the default config file. */
  stateDir: string;
  /** The daemon serving the state folder, if one runs. */
  daemon: LiveDaemon | null;
  force: boolean;
  dryRun: boolean;
  /** The environment the config is resolved in (keys from variables), as a daemon started here would. */
  env: Record<string, string | undefined>;
  /** Where each line of the report goes. */
  print: (line: string) => void;
}

/** The free-coding-models config read from `file`, or null (the problem printed). */
async function readFcm(file: string, print: (line: string) => void): Promise<FcmConfig | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    print(
      code === 'ENOENT'
        ? `fcm-router: no free-coding-models config at ${file} (name one: fcm-router import-fcm <file>)`
        : `fcm-router: cannot read ${file} (${code ?? 'error'})`,
    );
    return null;
  }
  const fcm = parseFcmConfig(text);
  if (fcm.ok) return fcm.config;
  reportIssues(print, file, fcm.issues);
  return null;
}

/** Runs the import; returns the exit code (0 done or nothing to do, 1 nothing written because of a problem). */
export async function runImportFcm(options: ImportOptions): Promise<number> {
  const fcm = await readFcm(options.file, options.print);
  if (fcm === null) return 1;
  const { daemon, configPath } = options;
  if (daemon !== null && (await daemonOwnsConfig(daemon, configPath)))
    return importThroughDaemon(daemon, fcm, options);
  return importIntoFile(fcm, configPath ?? path.join(options.stateDir, 'config.json'), options);
}

/** No daemon runs on the file: plan against it and write it through the guarded writer. */
async function importIntoFile(fcm: FcmConfig, configPath: string, options: ImportOptions): Promise<number> {
  const { print } = options;
  const current = await loadConfigFile(configPath);
  if (!current.ok) {
    reportIssues(print, configPath, current.issues);
    return 1;
  }
  const plan = planImport(fcm, {
    current: current.raw,
    effective: resolveConfig(current.config, options.env).sets,
    known: knownProviders(current.raw),
    force: options.force,
  });
  print(`Importing ${options.file} into ${configPath}:`);
  for (const line of plan.lines) print(`  ${line}`);
  if (!plan.changed) {
    print('Nothing to change.');
    return 0;
  }
  const checked = validateConfig(plan.next);
  if (!checked.ok) {
    reportIssues(print, 'the imported config', checked.issues);
    print('Nothing written.');
    return 1;
  }
  if (options.dryRun) {
    print('Dry run: nothing written.');
    return 0;
  }
  let written: GuardedWrite;
  try {
    written = await writeConfigGuarded(configPath, plan.next, current.revision);
  } catch (error) {
    print(`fcm-router: cannot write ${configPath} (${describeWriteError(error)}); nothing written.`);
    return 1;
  }
  if (!written.ok) {
    print(`fcm-router: ${configPath} changed while importing; nothing written. Run the import again.`);
    return 1;
  }
  print(writtenLine(options.daemon));
  return 0;
}

/** What the file written means for the router running, if any. */
function writtenLine(daemon: LiveDaemon | null): string {
  if (daemon === null) return 'Written. fcm-router uses it when it starts.';
  if (daemon.demo) {
    return `Written. The fcm-router running at ${daemon.url} is a demo on its own config, so it is unchanged: fcm-router started without --demo uses this file.`;
  }
  return `Written. The fcm-router running at ${daemon.url} uses another config file, so it is unchanged.`;
}
