/**
 * `fcm-router set-key <provider>`: through the daemon running on the config (its one writer, which uses the
 * key at once), or, with none running, into the file through the guarded writer.
 */
import path from 'node:path';
import { callDaemon, daemonOwnsConfig, type LiveDaemon } from './cli-control.js';
import { loadConfigFile, validateConfig, writeConfigGuarded } from '../config/config-store.js';
import { withProviderKey } from '../config/provider-key.js';
import { knownProviders } from '../import/import-plan.js';
import { reportIssues } from '../import/import-report.js';

export interface SetKeyOptions {
  provider: string;
  apiKey: string;
  /** `--config`, or undefined for the state folder's `config.json`. */
  configPath: string | undefined;
  stateDir: string;
  daemon: LiveDaemon | null;
  print: (line: string) => void;
  printError: (line: string) => void;
}

/** Stores the key; returns the exit code (0 saved, 1 not saved, the reason printed). */
export async function runSetKey(options: SetKeyOptions): Promise<number> {
  const { daemon, provider, apiKey } = options;
  if (daemon !== null && (await daemonOwnsConfig(daemon, options.configPath))) {
    const answer = await callDaemon(daemon, 'POST', '/api/providers/key', { provider, apiKey });
    if (answer.message !== null) {
      options.printError(`fcm-router: ${answer.message}`);
      return 1;
    }
    options.print(`key of ${provider} saved; the fcm-router running at ${daemon.url} uses it now`);
    return 0;
  }
  return setKeyInFile(options, options.configPath ?? path.join(options.stateDir, 'config.json'));
}

/** No daemon runs on the file: the same edit, written through the guarded writer. */
async function setKeyInFile(options: SetKeyOptions, configPath: string): Promise<number> {
  const { provider, printError } = options;
  const current = await loadConfigFile(configPath);
  if (!current.ok) {
    reportIssues(printError, configPath, current.issues);
    printError('Nothing saved.');
    return 1;
  }
  if (!knownProviders(current.raw).has(provider)) {
    printError(`fcm-router: unknown provider "${provider}"; nothing saved`);
    return 1;
  }
  const next = withProviderKey(current.raw, provider, options.apiKey);
  const checked = validateConfig(next);
  if (!checked.ok) {
    reportIssues(printError, 'the config with this key', checked.issues);
    return 1;
  }
  const written = await writeConfigGuarded(configPath, next, current.revision);
  if (!written.ok) {
    printError(`fcm-router: ${configPath} changed while saving; nothing saved. Run set-key again.`);
    return 1;
  }
  options.print(savedLine(provider, configPath, options.daemon));
  return 0;
}

/** What a key written into the file means for the router running, if any. */
function savedLine(provider: string, configPath: string, daemon: LiveDaemon | null): string {
  if (daemon === null) return `key of ${provider} saved in ${configPath}; fcm-router uses it when it starts`;
  if (daemon.demo) {
    return `key of ${provider} saved in ${configPath}; the fcm-router running at ${daemon.url} is a demo on its own config and does not use it: fcm-router started without --demo does`;
  }
  return `key of ${provider} saved in ${configPath} (the fcm-router running at ${daemon.url} uses another config file)`;
}
