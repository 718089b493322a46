/**
 * The daemon's side of edits made to `config.json` outside it: the watch that makes the live config read
 * the file again, and the log line for what it found.
 */
import type { RouterLogger } from '../public-types.js';
import type { Time } from '../state/clock.js';
import { FOLDER_REWATCH_MS } from '../files/folder-watch.js';
import { watchConfigFile, type ConfigWatch } from './config-watch.js';
import { issueText, type FileChange } from './file-sync.js';
import type { LiveConfig } from './live-config.js';

/** One line for a change made to the config file outside the router: paths and issues, never values. */
export function logFileChange(logger: RouterLogger, file: string, change: FileChange): void {
  if (change.status === 'applied')
    logger.info(
      `${file} was changed on disk: applied (${change.changed.join(', ') || 'nothing that matters changed'})`,
    );
  else if (change.status === 'invalid')
    logger.warn(
      `${file} was changed on disk and is not valid, so it is not used (running on the last good config; saves are refused until it is fixed): ${issueText(change.issues)}`,
    );
  else logger.warn(`${file} was removed: running on the last config; the next save writes it again`);
}

/**
 * Watches the config file and takes each change made outside the router (see `LiveConfig.syncWithFile`),
 * once the folder has settled on `time`.
 */
export function watchLiveConfig(live: LiveConfig, logger: RouterLogger, time: Time): ConfigWatch {
  return watchConfigFile({
    file: live.path,
    time,
    onChange: () => {
      live.syncWithFile().catch((error: unknown) => {
        logger.warn(`could not read ${live.path}: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
    onError: (message) =>
      logger.warn(
        `cannot watch ${live.path} for edits (${message}): an edit is taken before the next save instead, and the watch is tried again every ${FOLDER_REWATCH_MS / 1000} s`,
      ),
    onWatching: () => logger.info(`watching ${live.path} for edits again`),
  });
}
