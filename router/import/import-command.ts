/**
 * `fcm-router import-fcm [file]`: takes the keys, disabled providers and sets of a free-coding-models config
 * into this router's config, printing each change (keys by fingerprint only). What the config has already
 * is kept unless `--force`; `--dry-run` writes nothing; an import that would leave an invalid config writes
 * nothing either.
 */
import { readFile } from 'node:fs/promises';
import { CATALOGUE_PROVIDERS } from '../catalogue/providers.js';
import { loadConfigFile, saveConfigFile, validateConfig } from '../config/config-store.js';
import type { ConfigIssue } from '../config/schema.js';
import { parseFcmConfig } from './fcm-config.js';
import { planImport } from './import-plan.js';

export interface ImportOptions {
  /** The free-coding-models config to read. */
  file: string;
  /** This router's config file. */
  configPath: string;
  force: boolean;
  dryRun: boolean;
  /** Where each line of the report goes. */
  print: (line: string) => void;
}

function report(print: (line: string) => void, where: string, issues: readonly ConfigIssue[]): void {
  print(`fcm-router: ${where} is not usable:`);
  for (const issue of issues) print(`  ${issue.path}: ${issue.message}`);
}

/** Runs the import; returns the exit code (0 done or nothing to do, 1 nothing written because of a problem). */
export async function runImportFcm(options: ImportOptions): Promise<number> {
  const { file, configPath, print } = options;
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
    return 1;
  }
  const fcm = parseFcmConfig(text);
  if (!fcm.ok) {
    report(print, file, fcm.issues);
    return 1;
  }
  const current = await loadConfigFile(configPath);
  if (!current.ok) {
    report(print, configPath, current.issues);
    return 1;
  }
  const known = new Set([
    ...CATALOGUE_PROVIDERS.map((provider) => provider.id),
    ...Object.keys(current.raw.providers ?? {}),
  ]);
  const plan = planImport(fcm.config, current.raw, known, options.force);
  print(`Importing ${file} into ${configPath}:`);
  for (const line of plan.lines) print(`  ${line}`);
  if (!plan.changed) {
    print('Nothing to change.');
    return 0;
  }
  const checked = validateConfig(plan.next);
  if (!checked.ok) {
    report(print, 'the imported config', checked.issues);
    print('Nothing written.');
    return 1;
  }
  if (options.dryRun) {
    print('Dry run: nothing written.');
    return 0;
  }
  await saveConfigFile(configPath, plan.next);
  print(`Written. A running fcm-router uses it after a restart.`);
  return 0;
}
