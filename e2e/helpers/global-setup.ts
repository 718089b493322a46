import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './daemon.js';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the dashboard when `dist/renderer` is missing or older than its sources: the daemon serves it. */
export default function globalSetup(): void {
  const built = path.join(repoRoot, 'dist', 'renderer', 'index.html');
  let builtAt = 0;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    // Not built yet.
  }
  const sources = Math.max(
    newestMtime(path.join(repoRoot, 'renderer')),
    statSync(path.join(repoRoot, 'vite.config.ts')).mtimeMs,
  );
  if (builtAt > sources) return;
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status ?? result.signal})`);
}
