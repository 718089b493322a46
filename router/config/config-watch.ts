/**
 * Notices when `config.json` is changed by someone else: a watch on its folder (so a file replaced by a
 * rename, as editors and atomic writers do, is still seen), debounced so one save is one look. What a
 * change means is the live config's to decide; this only says when to look.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Time, TimerHandle } from '../state/clock.js';

/** How long the folder must be quiet after a change before the file is read. */
export const CONFIG_WATCH_DEBOUNCE_MS = 150;

export interface ConfigWatchOptions {
  file: string;
  /** Called once the file's folder has been quiet for `debounceMs` after a change to the file. */
  onChange: () => void;
  /** The watch could not start or stopped working; saves are still checked against the file. */
  onError: (message: string) => void;
  /** @default {@link CONFIG_WATCH_DEBOUNCE_MS} */
  debounceMs?: number;
  /** The settle timer's time (the router's). */
  time: Time;
}

/** A running watch; `close` stops it and any look still pending. */
export interface ConfigWatch {
  close(): void;
}

/** Starts watching `options.file`. A folder that cannot be watched is reported and nothing is watched. */
export function watchConfigFile(options: ConfigWatchOptions): ConfigWatch {
  const name = path.basename(options.file);
  const debounceMs = options.debounceMs ?? CONFIG_WATCH_DEBOUNCE_MS;
  const { time } = options;
  let timer: TimerHandle | null = null;
  let watcher: FSWatcher | undefined;
  const close = (): void => {
    time.clearTimeout(timer);
    watcher?.close();
    watcher = undefined;
  };
  try {
    watcher = watch(path.dirname(options.file), { persistent: false }, (_event, filename) => {
      // Some platforms do not name the file: then any change in the folder may be ours.
      if (filename !== null && filename !== name) return;
      time.clearTimeout(timer);
      timer = time.setTimeout(options.onChange, debounceMs);
    });
  } catch (error) {
    options.onError(watchError(error));
    return { close };
  }
  watcher.on('error', (error) => {
    close();
    options.onError(watchError(error));
  });
  return { close };
}

function watchError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
