/**
 * What a change of `config.json` made outside the router means for the config in use, and the words a
 * refused save answers with. Pure: the live config reads the file and acts on the verdict.
 */
import type { ConfigFileEvent } from '../api-types.js';
import { diffPaths } from './config-diff.js';
import { NO_FILE_REVISION, type LoadResult } from './config-store.js';
import type { Config, ConfigInput, ConfigIssue } from './schema.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A change on disk, as the `config-file` event reports it (without the file, which the caller names). */
export type FileChange = DistributiveOmit<ConfigFileEvent, 'type' | 'path'>;

/** What the live config does with a file it read anew. */
export type FileVerdict =
  /** Valid: run on it (`changed` may be empty when it means the same as the config in use). */
  | { take: 'config'; raw: ConfigInput; config: Config; changed: string[] }
  /** Invalid: keep the config in use and the file as it is, and name the issues. */
  | { take: 'problem'; issues: ConfigIssue[] }
  /** Gone: keep the config in use; the next save writes the file again. */
  | { take: 'nothing' };

/** The verdict on a file read at a revision the router had not seen, against the config in use. */
export function judgeFile(loaded: LoadResult, current: ConfigInput): FileVerdict {
  if (!loaded.ok) return { take: 'problem', issues: loaded.issues };
  if (loaded.revision === NO_FILE_REVISION) return { take: 'nothing' };
  return { take: 'config', raw: loaded.raw, config: loaded.config, changed: diffPaths(current, loaded.raw) };
}

/** The change a verdict reports. */
export function changeOf(verdict: FileVerdict): FileChange {
  switch (verdict.take) {
    case 'config':
      return { status: 'applied', changed: verdict.changed };
    case 'problem':
      return { status: 'invalid', issues: verdict.issues };
    case 'nothing':
      return { status: 'removed' };
  }
}

/** `router.breaker.x: must be at least 1; (root): invalid JSON …` */
export function issueText(issues: readonly ConfigIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
}

/** Why a save is refused while the file holds an invalid edit (saving would replace it). */
export function invalidOnDiskMessage(file: string, issues: readonly ConfigIssue[]): string {
  return `${file} was changed on disk and is not valid (${issueText(issues)}); the router runs on the last good config. Fix or undo that edit, then save again: saving now would replace it`;
}

/** Why a save based on an older revision is refused. */
export function staleSaveMessage(file: string): string {
  return `${file} was changed on disk since this config was read; nothing was saved. Reload the config (the change on disk is in use) and save again`;
}
