/**
 * Notices when `config.json` is changed by someone else: a watch on its folder (so a file replaced by a
 * rename, as editors and atomic writers do, is still seen), debounced so one save is one look. A
 * `config.json` that is a symlink (into a dotfiles folder, say) is edited at its target, so the target's
 * folder is watched too, and the link is resolved again after each change, in case it now points elsewhere.
 * A watched folder removed and made again (or missing at first) is watched again once it is there.
 * What a change means is the live config's to decide; this only says when to look.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { watchFolderOf, type FolderWatch } from '../files/folder-watch.js';
import type { Time, TimerHandle } from '../state/clock.js';

/** How long the folder must be quiet after a change before the file is read. */
export const CONFIG_WATCH_DEBOUNCE_MS = 150;

export interface ConfigWatchOptions {
  file: string;
  /** Called once the file's folder has been quiet for `debounceMs` after a change to the file. */
  onChange: () => void;
  /**
   * A folder cannot be watched (missing, removed, or its watch failed): said once until it is watched again,
   * and tried again every `retryMs` meanwhile. Saves are still checked against the file.
   */
  onError: (message: string) => void;
  /** A folder reported by `onError` is watched again (and the file is looked at). */
  onWatching?: () => void;
  /** @default {@link CONFIG_WATCH_DEBOUNCE_MS} */
  debounceMs?: number;
  /** How often a folder that cannot be watched is tried again. @default `FOLDER_REWATCH_MS` */
  retryMs?: number;
  /** The settle and retry timers' time (the router's). */
  time: Time;
}

/** A running watch; `close` stops it and any look still pending. */
export interface ConfigWatch {
  close(): void;
}

/**
 * The file a path names once symlinks are followed; `fallback` when it cannot be resolved (a link whose
 * target is being replaced right now). Synchronous: one lookup per settled change, and the watch on the
 * new target is then in place before the change is reported.
 */
function realFile(file: string, fallback: string): string {
  try {
    return realpathSync(file);
  } catch {
    return fallback;
  }
}

/** The path itself, its folder's symlinks followed: the folder's watch sees changes to it. */
function directPath(file: string): string {
  return path.join(realFile(path.dirname(file), path.dirname(file)), path.basename(file));
}

/**
 * Starts watching `options.file`. A folder that cannot be watched (missing, removed, or the watch failed)
 * is reported and tried again until it can be; the file is looked at once it is watched again.
 */
export function watchConfigFile(options: ConfigWatchOptions): ConfigWatch {
  const { file, time } = options;
  const debounceMs = options.debounceMs ?? CONFIG_WATCH_DEBOUNCE_MS;
  let timer: TimerHandle | null = null;
  let target = realFile(file, file);
  const changed = (): void => {
    time.clearTimeout(timer);
    timer = time.setTimeout(settled, debounceMs);
  };
  const watchOf = (watched: string): FolderWatch =>
    watchFolderOf({
      file: watched,
      changed,
      lost: (error) => options.onError(watchError(error)),
      back: () => options.onWatching?.(),
      time,
      retryMs: options.retryMs,
    });
  let followed: FolderWatch | null = null;
  // A symlinked file is edited at its target: its folder is watched too, for that name.
  const follow = (): void => {
    followed?.close();
    followed = target === directPath(file) ? null : watchOf(target);
  };
  const settled = (): void => {
    timer = null;
    const now = realFile(file, target);
    if (now !== target) {
      target = now;
      follow();
    }
    options.onChange();
  };
  const own = watchOf(file);
  follow();
  return {
    close: () => {
      time.clearTimeout(timer);
      own.close();
      followed?.close();
    },
  };
}

function watchError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
