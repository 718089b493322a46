/**
 * The one way a file we own is replaced: a temp file beside it, written whole (every byte, or an error),
 * flushed to disk, then renamed over it. A crash or a full disk at any point leaves the old file as it was;
 * only the rename makes the new text visible, and a failed write removes the temp file and throws. A crash
 * between the two leaves its temp file behind (a whole copy of the text, keys and all): the next write of
 * the same file removes it.
 */
import { randomBytes } from 'node:crypto';
import {
  lstat,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's mode. @default the mode of the file replaced, or 0666 less the umask for a new one */
  mode?: number;
  /** Also flush the folder after the rename, so the new name itself survives a power cut. */
  syncFolder?: boolean;
  /**
   * Asked once the new text is on disk, just before the rename: false leaves the file as it is (the temp
   * file removed) and the write resolves false. A guarded writer re-checks the file here.
   */
  stillWanted?: () => Promise<boolean>;
}

/** Whether `name` is a temp file {@link writeFileAtomically} makes beside a file named `base`. */
export function isTempFileOf(name: string, base: string): boolean {
  return name.startsWith(`${base}.`) && /^\.[0-9a-f]{12}\.tmp$/.test(name.slice(base.length));
}

/**
 * How long before a successful write a temp file of the same file must have last changed to be a crashed
 * writer's: a write takes milliseconds, so a younger one may be another process's write under way.
 */
export const STALE_TEMP_MS = 60_000;

/**
 * Whether a temp file last changed at `tempMs` is a crashed write's, beside a file just written at
 * `writtenMs` (both the file system's times, so no clock is read). Pure.
 */
export function isStaleTemp(tempMs: number, writtenMs: number): boolean {
  return writtenMs - tempMs > STALE_TEMP_MS;
}

/**
 * Removes what crashed writes of `target` left beside it: plain files named by its own temp pattern
 * (`<name>.<12 hex>.tmp`) that are stale by {@link isStaleTemp} against `referenceMs` (when the file was
 * last written, or now), and nothing else. Never throws: a leftover is only clutter.
 */
export async function removeStaleTemps(target: string, referenceMs: number): Promise<void> {
  const folder = path.dirname(target);
  const base = path.basename(target);
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((found) => isTempFileOf(found, base))) {
    const temp = path.join(folder, name);
    const found = await lstat(temp).catch(() => null);
    if (found?.isFile() === true && isStaleTemp(found.mtimeMs, referenceMs))
      await unlink(temp).catch(() => undefined);
  }
}

function tempBeside(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/** How many symlinks a path may go through before it is taken for a loop (as many as Linux allows). */
const MAX_LINKS = 40;

/** `ELOOP`, as the system says it, for a path whose links never reach a file. */
function linkLoop(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ELOOP: too many levels of symbolic links, write '${file}'`), {
    code: 'ELOOP',
  });
}

/**
 * The file a write of `file` replaces, so that a symlink stays a link: `file` itself, or the file its
 * link (or chain of links) points to, even when that does not exist yet (each link read relative to its
 * own folder). Throws `ELOOP` for links that go round.
 */
export async function writeTarget(file: string): Promise<string> {
  const real = await realpath(file).catch(() => null);
  if (real !== null) return real;
  let at = path.resolve(file);
  for (let links = 0; links <= MAX_LINKS; links += 1) {
    // The folder as the system finds it, so a relative link's `..` is taken from where the link really is.
    const folder = await realpath(path.dirname(at)).catch(() => path.dirname(at));
    at = path.join(folder, path.basename(at));
    const next = await readlink(at).catch(() => null);
    // Not a link (or nothing there): this is the file written.
    if (next === null) return at;
    at = path.resolve(folder, next);
  }
  throw linkLoop(file);
}

/** Throws, naming both, when `file` is a link to `target` in a folder that does not exist. */
async function targetFolderExists(file: string, target: string): Promise<void> {
  if (target === path.resolve(file)) return;
  const folder = path.dirname(target);
  if ((await stat(folder).catch(() => null)) === null)
    throw new Error(`it is a symbolic link to ${target}, and the folder ${folder} does not exist`);
}

/** Writes every byte of `bytes` (FileHandle.writeFile loops over short writes and throws ENOSPC) and checks. */
async function writeWhole(handle: FileHandle, bytes: Buffer): Promise<void> {
  await handle.writeFile(bytes);
  const { size } = await handle.stat();
  if (size !== bytes.byteLength)
    throw new Error(`only ${size} of ${bytes.byteLength} bytes reached the disk; the file was not replaced`);
  await handle.sync();
}

/** Flushes a folder's entries (where folders can be opened: not on Windows). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => null);
  if (handle === null) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems cannot flush a folder; the rename has happened all the same.
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `file` with `text` (UTF-8), atomically; a symlink is followed and stays a link (see
 * {@link writeTarget}; the folder of its target is not created). Resolves true when written (false only
 * when `stillWanted` said no), after removing the temp files crashed writes of it left. Throws on any
 * failure, the old file intact.
 */
export async function writeFileAtomically(
  file: string,
  text: string,
  options: AtomicWriteOptions = {},
): Promise<boolean> {
  const target = await writeTarget(file);
  await targetFolderExists(file, target);
  const old = await stat(target).catch(() => null);
  const mode = options.mode ?? (old === null ? undefined : old.mode & 0o7777);
  const temp = tempBeside(target);
  let handle: FileHandle | null = await open(temp, 'wx', mode);
  try {
    // Exactly the mode asked for (open's is reduced by the umask), and the owner of the file replaced.
    if (mode !== undefined) await handle.chmod(mode);
    if (old !== null && process.getuid?.() === 0) await handle.chown(old.uid, old.gid);
    await writeWhole(handle, Buffer.from(text, 'utf8'));
    await handle.close();
    handle = null;
    if (options.stillWanted && !(await options.stillWanted())) {
      await unlink(temp);
      return false;
    }
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (options.syncFolder === true) await syncFolder(path.dirname(target));
  // Against the new file's own time: no clock is read, so a skewed file server cannot make a temp look old.
  const written = await stat(target).catch(() => null);
  if (written !== null) await removeStaleTemps(target, written.mtimeMs);
  return true;
}
