/**
 * Lock files: one created only if none exists (`wx`), holding who made it; a stale one moved out of the way
 * without removing a newer one that replaced it meanwhile; and whether the process a lock names still runs.
 */
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';

/** True while a process with this pid exists (EPERM: it exists, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates `file` holding `text` (0600, flushed), unless it exists: then resolves false. */
export async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Moves a stale lock (whose text was `judged`) out of the way. Another newcomer may have replaced it between
 * our read and the rename; then the file moved aside is not the one judged stale, and it is put back.
 */
export async function removeStale(file: string, judged: string): Promise<void> {
  const aside = `${file}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch {
    return; // gone already: someone else removed it
  }
  const moved = await readFile(aside, 'utf8').catch(() => judged);
  if (moved !== judged) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}
