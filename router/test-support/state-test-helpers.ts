/** Small helpers the state-file tests share: a logger that keeps its lines, temp dirs, every file of a folder. */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouterLogger } from '../public-types.js';

/** A logger that records every line as `<level> <line>`. */
export function recordingLogger(): RouterLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (line) => lines.push(`info ${line}`),
    warn: (line) => lines.push(`warn ${line}`),
    error: (line) => lines.push(`error ${line}`),
  };
}

/** Runs `run` with a fresh temp dir and removes it afterwards. */
export async function withDir(run: (dir: string) => Promise<void>, prefix = 'fcm-state-'): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every file under `dir`, recursively. */
export async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = join(dir, entry.name);
      return entry.isDirectory() ? allFiles(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}
