/**
 * After-run checks of a router's state dir shared by the soak and the crash test: every state file parses
 * with the router's own schemas, nothing was moved aside as corrupt, no stray files are left, and no canary
 * (prompt, key, completion) appears in any file.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { breakerRecordSchema } from '../router/state/breaker-store.js';
import { historyEntrySchema } from '../router/state/history-entry.js';

export interface StateCheck {
  problems: string[];
  /** Entries in history.json (null when the file is missing or unreadable). */
  historyIds: string[] | null;
  /** When the daemon took the snapshot in history.json (its `savedAt`; null with `historyIds`). */
  historySavedAt: number | null;
  breakerCount: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

async function readJson(file: string, problems: string[]): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || value.version !== 1 || typeof value.savedAt !== 'number') {
      problems.push(`${path.basename(file)}: not a version 1 state file`);
      return null;
    }
    return value;
  } catch {
    problems.push(`${path.basename(file)}: torn or invalid JSON (${text.length} bytes)`);
    return null;
  }
}

/** Checks the state files of `dir`; `allowed` are other file names that may be there. */
export async function checkStateDir(
  dir: string,
  allowed: readonly string[] = ['config.json'],
): Promise<StateCheck> {
  const problems: string[] = [];
  const known = new Set([
    'breakers.json',
    'history.json',
    'quotas.json',
    'latency.json',
    'counters.json',
    'budgets.json',
    'usage.json',
    'discovery.json',
    'fit.json',
    'probes.json',
    'daemon.json',
    'daemon.lock',
    ...allowed,
  ]);
  // Budget counts, usage and probes: whole version 1 state files when present.
  for (const name of ['budgets.json', 'usage.json', 'probes.json'])
    await readJson(path.join(dir, name), problems);
  for (const name of await readdir(dir)) {
    if (name.includes('.corrupt-')) problems.push(`${name}: a state file was moved aside as corrupt`);
    else if (!known.has(name)) problems.push(`${name}: unexpected file (a temp file left behind?)`);
  }
  const breakers = await readJson(path.join(dir, 'breakers.json'), problems);
  let breakerCount = 0;
  if (breakers) {
    if (!isRecord(breakers.breakers)) problems.push('breakers.json: no breakers object');
    else
      for (const [key, value] of Object.entries(breakers.breakers)) {
        breakerCount += 1;
        if (!breakerRecordSchema.safeParse(value).success)
          problems.push(`breakers.json: invalid record for ${key}`);
      }
  }
  const history = await readJson(path.join(dir, 'history.json'), problems);
  let historyIds: string[] | null = null;
  const historySavedAt = history && typeof history.savedAt === 'number' ? history.savedAt : null;
  if (history) {
    if (!Array.isArray(history.entries)) problems.push('history.json: no entries array');
    else {
      historyIds = [];
      for (const entry of history.entries as unknown[]) {
        const parsed = historyEntrySchema.safeParse(entry);
        if (parsed.success) historyIds.push(parsed.data.requestId);
        else problems.push('history.json: an invalid entry');
      }
    }
  }
  const counters = await readJson(path.join(dir, 'counters.json'), problems);
  if (counters && !isRecord(counters.days)) problems.push('counters.json: no days object');
  const quotas = await readJson(path.join(dir, 'quotas.json'), problems);
  if (quotas && !(isRecord(quotas.models) && isRecord(quotas.providers) && isRecord(quotas.auth)))
    problems.push('quotas.json: wrong shape');
  return { problems, historyIds, historySavedAt: historyIds === null ? null : historySavedAt, breakerCount };
}

/**
 * Request totals of `counters.json` in `dir`, every day summed (a soak may run across midnight), or null
 * when the file is missing or not a counters file.
 */
export async function counterTotals(dir: string): Promise<{ requests: number; served: number } | null> {
  const counters = await readJson(path.join(dir, 'counters.json'), []);
  if (!counters || !isRecord(counters.days)) return null;
  const totals = { requests: 0, served: 0 };
  const count = (value: unknown): number => (typeof value === 'number' ? value : 0);
  for (const day of Object.values(counters.days)) {
    if (!isRecord(day)) return null;
    const served = count(day.servedFirstTry) + count(day.servedAfterFailover);
    totals.served += served;
    totals.requests += served + count(day.failed) + count(day.clientAborted) + count(day.rejected);
  }
  return totals;
}

/** Files under `dir` (recursively) whose bytes contain any of `canaries`, as `file: canary`. */
export async function findCanaries(dir: string, canaries: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = await readFile(file, 'latin1');
    for (const canary of canaries)
      if (text.includes(canary)) found.push(`${path.relative(dir, file)}: ${canary.slice(0, 12)}…`);
  }
  return found;
}
