/**
 * `fcm-router set-key <provider>`: through the daemon running on the config (its one writer, which uses the
 * key at once), or, with none running, into the file through the guarded writer.
 */
import path from 'node:path';
import { callDaemon, daemonConfigPath, daemonOwnsConfig, type LiveDaemon } from './cli-control.js';
import {
  describeWriteError,
  loadConfigFile,
  validateConfig,
  writeConfigGuarded,
  type GuardedWrite,
} from '../config/config-store.js';
import { withProviderKey } from '../config/provider-key.js';
import type { ConfigInput } from '../config/schema.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
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
  const configPath = options.configPath ?? path.join(options.stateDir, 'config.json');
  if (daemon !== null && (await daemonOwnsConfig(daemon, options.configPath))) {
    // The file the daemon runs on (maybe not the state folder's): its key before the change.
    const served = await daemonConfigPath(daemon);
    const before = await loadConfigFile(served ?? configPath);
    const answer = await callDaemon(daemon, 'POST', '/api/providers/key', { provider, apiKey });
    if (answer.message !== null) {
      options.printError(`fcm-router: ${answer.message}`);
      return 1;
    }
    const replaced = before.ok ? replacedNote(before.raw, provider, apiKey) : '';
    options.print(`key of ${provider} saved${replaced}; the fcm-router running at ${daemon.url} uses it now`);
    return 0;
  }
  return setKeyInFile(options, configPath);
}

/**
 * What saving `apiKey` did to the key `provider` had in `raw`: the one it replaced, by fingerprint (as the
 * dashboard shows keys), since set-key keeps one key where the provider had one; nothing for a first key.
 */
function replacedNote(raw: ConfigInput, provider: string, apiKey: string): string {
  const old = raw.providers?.[provider]?.apiKey;
  if (old === undefined || old === '') return '';
  if (old === apiKey) return ' (the same key as before)';
  return ` in place of the key ${keyFingerprint(old)}, which is no longer in the config`;
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
  let written: GuardedWrite;
  try {
    written = await writeConfigGuarded(configPath, next, current.revision);
  } catch (error) {
    printError(`fcm-router: cannot write ${configPath} (${describeWriteError(error)}); nothing saved`);
    return 1;
  }
  if (!written.ok) {
    printError(`fcm-router: ${configPath} changed while saving; nothing saved. Run set-key again.`);
    return 1;
  }
  const saved = `key of ${provider} saved in ${configPath}${replacedNote(current.raw, provider, options.apiKey)}`;
  options.print(`${saved}${whoUsesIt(options.daemon)}`);
  return 0;
}

/** What a key written into the file means for the router running, if any. */
function whoUsesIt(daemon: LiveDaemon | null): string {
  if (daemon === null) return '; fcm-router uses it when it starts';
  if (daemon.demo) {
    return `; the fcm-router running at ${daemon.url} is a demo on its own config and does not use it: fcm-router started without --demo does`;
  }
  return ` (the fcm-router running at ${daemon.url} uses another config file)`;
}
