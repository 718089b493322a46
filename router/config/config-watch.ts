/**
 * Notices when `config.json` is changed by someone else: a watch on its folder (so a file replaced by a
 * rename, as editors and atomic writers do, is still seen), debounced so one save is one look. A
 * `config.json` that is a symlink (into a dotfiles folder, say) is edited at its target, so the target's
 * folder is watched too, and the link is resolved again after each change, in case it now points elsewhere.
 * What a change means is the live config's to decide; this only says when to look.
 */
import { realpathSync, watch, type FSWatcher } from 'node:fs';
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

/** Watches `file`'s folder for changes to that name; null when the folder cannot be watched (reported). */
function watchName(file: string, changed: () => void, failed: (error: unknown) => void): FSWatcher | null {
  const name = path.basename(file);
  let watcher: FSWatcher;
  try {
    watcher = watch(path.dirname(file), { persistent: false }, (_event, filename) => {
      // Some platforms do not name the file: then any change in the folder may be ours.
      if (filename === null || filename === name) changed();
    });
  } catch (error) {
    failed(error);
    return null;
  }
  watcher.on('error', failed);
  return watcher;
}

/** Starts watching `options.file`. A folder that cannot be watched is reported and nothing is watched. */
export function watchConfigFile(options: ConfigWatchOptions): ConfigWatch {
  const { file, time } = options;
  const debounceMs = options.debounceMs ?? CONFIG_WATCH_DEBOUNCE_MS;
  let timer: TimerHandle | null = null;
  let closed = false;
  let target = realFile(file, file);
  const watches: { link: FSWatcher | null; target: FSWatcher | null } = { link: null, target: null };
  const close = (): void => {
    closed = true;
    time.clearTimeout(timer);
    watches.link?.close();
    watches.target?.close();
  };
  const failed = (error: unknown): void => {
    if (closed) return;
    close();
    options.onError(watchError(error));
  };
  const changed = (): void => {
    time.clearTimeout(timer);
    timer = time.setTimeout(settled, debounceMs);
  };
  // The path itself, its folder's symlinks followed: the folder's watch sees changes to it.
  const direct = path.join(realFile(path.dirname(file), path.dirname(file)), path.basename(file));
  // A symlinked file is edited at its target: its folder is watched too, for that name.
  const follow = (): void => {
    watches.target?.close();
    watches.target = target === direct ? null : watchName(target, changed, failed);
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
  watches.link = watchName(file, changed, failed);
  if (!closed) follow();
  return { close };
}

function watchError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
