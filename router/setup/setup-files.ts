/**
 * How setup reads and writes an agent's files: every failure is said in words naming the file or folder
 * (never Node's `EISDIR: illegal operation on a directory, read`), and a write that fails part-way is taken
 * back, so the message can say that nothing was changed.
 */
import { copyFile, mkdir, readFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically, writeTarget } from '../files/atomic-write.js';

/** What an error of the file system means for the file or folder it was about. */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
    case 'ERR_FS_EISDIR':
      return 'it is a folder, not a file';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return code ?? (error instanceof Error ? error.message : String(error));
  }
}

/** Runs `step`; an error it throws becomes `<what> (<reason>)`, `what` naming the file or folder. */
export async function attempt<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new Error(`${what} (${reasonOf(error)})`, { cause: error });
  }
}

/** The text of `file`, or null when there is none; throws a message naming it when it cannot be read. */
export async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read ${file} (${reasonOf(error)})`, { cause: error });
  }
}

/** {@link readText} before anything is written: its error says that nothing was changed. */
export async function readBeforeWriting(file: string): Promise<string | null> {
  try {
    return await readText(file);
  } catch (error) {
    throw new Error(`${(error as Error).message}; nothing was changed`, { cause: error });
  }
}

/** One change made to the disk, and how to take it back. */
interface Made {
  path: string;
  takeBack: () => Promise<unknown>;
}

/**
 * The changes of one write, recorded as they are made so that a failure part-way can take them back:
 * `failed` turns the error into a message saying whether anything is left.
 */
export class ChangeLog {
  readonly #made: Made[] = [];

  /**
   * Creates `folder` and the folders above it that are missing (taken back if they stay empty); resolves
   * with the topmost folder it created, or null when `folder` was there.
   */
  async makeFolder(folder: string): Promise<string | null> {
    const first = await attempt(`cannot create the folder ${folder}`, () =>
      mkdir(folder, { recursive: true }),
    );
    if (first === undefined) return null;
    this.#made.push({
      path: first,
      takeBack: async () => {
        if ((await removeEmptyFolders(folder, first)) !== first) throw new Error(`${first} is left`);
      },
    });
    return first;
  }

  /** Copies `file` to `copy`, byte for byte (`copy` is new: taking it back removes it). */
  async copy(file: string, copy: string): Promise<void> {
    await attempt(`cannot write ${copy}`, () => copyFile(file, copy));
    this.#made.push({ path: copy, takeBack: () => rm(copy, { force: true }) });
  }

  /**
   * Writes `text` to `file` (atomically), or removes it when `text` is null; `before` is what it held. A
   * symlink is written, or removed, at its target: the link stays as it was.
   */
  async put(file: string, text: string | null, before: string | null): Promise<void> {
    if (text === null) await attempt(`cannot remove ${file}`, () => removeAgentFile(file));
    else await attempt(`cannot write ${file}`, () => writeAgentFile(file, text));
    this.#made.push({
      path: file,
      takeBack: () => (before === null ? removeAgentFile(file) : writeAgentFile(file, before)),
    });
  }

  /** `error`'s message with what became of the changes made before it: all taken back, or which are left. */
  async failed(error: unknown): Promise<Error> {
    const left: string[] = [];
    for (const made of this.#made.reverse()) await made.takeBack().catch(() => left.push(made.path));
    const message = (error instanceof Error ? error.message : String(error)).replace(
      /; nothing was changed$/,
      '',
    );
    const after =
      left.length === 0
        ? 'nothing was changed'
        : `could not take back the change to ${left.join(' and ')}: check ${left.length === 1 ? 'it' : 'them'}`;
    return new Error(`${message}; ${after}`, { cause: error });
  }
}

/** An agent's file (or our note beside it) replaced whole, its mode kept, the new name flushed to disk. */
function writeAgentFile(file: string, text: string): Promise<boolean> {
  return writeFileAtomically(file, text, { syncFolder: true });
}

/** Removes an agent's file (nothing when there is none): a symlink's target, so the link stays. */
async function removeAgentFile(file: string): Promise<void> {
  await rm(await writeTarget(file), { force: true });
}

/**
 * Removes `folder` and the folders above it up to `top`, while they are empty; resolves with the last one
 * removed (`top` when all were), or null when `folder` itself stays.
 */
export async function removeEmptyFolders(folder: string, top: string): Promise<string | null> {
  let removed: string | null = null;
  for (let at = folder; at.startsWith(top); at = path.dirname(at)) {
    const gone = await rmdir(at).then(
      () => true,
      () => false,
    );
    if (!gone) return removed;
    removed = at;
    if (at === top) break;
  }
  return removed;
}
