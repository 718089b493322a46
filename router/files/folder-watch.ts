/**
 * A watch on a file's folder for changes to that file's name, which outlives the folder: a folder removed or
 * moved away (its old watch then sees nothing more) or a watch that fails is watched again on the same path,
 * at once and then every `retryMs` while it cannot be, saying so once until it is back. Each time it is
 * watched again it reports a change, since the file may have changed while nothing watched it.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Time, TimerHandle } from '../state/clock.js';

/** How often a folder that cannot be watched (missing, say) is tried again. */
export const FOLDER_REWATCH_MS = 2_000;

export interface FolderWatchOptions {
  /** The file whose folder is watched, for changes to its name. */
  file: string;
  /** The file may have changed: an event named it (or named nothing), or the folder was watched again. */
  changed: () => void;
  /** The folder cannot be watched now (called once, until `back`); it is tried again every `retryMs`. */
  lost: (error: unknown) => void;
  /** The folder is watched again after `lost`. */
  back: () => void;
  time: Time;
  /** @default {@link FOLDER_REWATCH_MS} */
  retryMs?: number;
}

/** A running folder watch; `close` stops it and any retry. */
export interface FolderWatch {
  close(): void;
}

/**
 * Whether a folder watch's event says the watched folder itself went (removed, or moved away): the watch
 * names the folder, as it names its entries, when that happens to the folder. Pure.
 */
export function isFolderItself(event: string, filename: string | null, folder: string): boolean {
  return event === 'rename' && filename === path.basename(folder);
}

/** Whether an event may concern the file named `name`: some platforms name no file, then any may. Pure. */
export function mayConcern(filename: string | null, name: string): boolean {
  return filename === null || filename === name;
}

/** Starts watching `options.file`'s folder; a folder that cannot be watched now is reported and retried. */
export function watchFolderOf(options: FolderWatchOptions): FolderWatch {
  const { file, time, changed } = options;
  const folder = path.dirname(file);
  const name = path.basename(file);
  const retryMs = options.retryMs ?? FOLDER_REWATCH_MS;
  let current: FSWatcher | null = null;
  let retry: TimerHandle | null = null;
  let down = false;
  let closed = false;

  const stop = (): void => {
    time.clearTimeout(retry);
    retry = null;
    current?.close();
    current = null;
  };
  const later = (error: unknown): void => {
    stop();
    if (!down) {
      down = true;
      options.lost(error);
    }
    if (!closed) retry = time.setTimeout(() => arm(true), retryMs);
  };
  const arm = (again: boolean): void => {
    stop();
    if (closed) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: false }, (event, filename) => {
        if (watcher !== current) return;
        if (mayConcern(filename, name)) changed();
        // The old folder's watch sees nothing more: watch the path again (a new folder, or none yet).
        if (isFolderItself(event, filename, folder)) arm(true);
      });
    } catch (error) {
      later(error);
      return;
    }
    current = watcher;
    // Node closes a watch that failed: it is tried again after a while, not at once, so a failing one
    // does not spin.
    watcher.on('error', (error) => {
      if (watcher === current) later(error);
    });
    if (down) {
      down = false;
      options.back();
    }
    if (again) changed();
  };

  arm(false);
  return {
    close: () => {
      closed = true;
      stop();
    },
  };
}
