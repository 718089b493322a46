/**
 * What one request ran, from V8 precise coverage (`Profiler.takePreciseCoverage` with `callCount: true,
 * detailed: false`) taken before and after it: the functions under a source folder the request called, grouped
 * by file. V8 resets the counts at every take, so the take before the request is its zero (after minus
 * before, with before at 0) and the take after holds exactly the request's calls. Pure: the inspector
 * session lives in `request-walk.ts`.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The part of V8's `ScriptCoverage` this reads. */
export interface ScriptCoverageLike {
  url: string;
  functions: readonly {
    functionName: string;
    ranges: readonly { startOffset: number; endOffset: number; count: number }[];
  }[];
}

/** One function the request ran, with how many times. */
export interface WalkedFunction {
  name: string;
  calls: number;
}

/** One file the request ran code of. */
export interface WalkedFile {
  /** Relative to the root, with `/` separators. */
  file: string;
  functions: WalkedFunction[];
}

export interface Walk {
  files: WalkedFile[];
  functionCount: number;
  callCount: number;
}

/** Which files count: those under `root`'s `folder`, less tests and test support. */
export interface WalkScope {
  root: string;
  folder: string;
}

/** esbuild's per-file helper that keeps function names (tsx adds it): the loader's, not the router's. */
const LOADER_HELPERS = new Set(['__name']);

/**
 * The functions in scope with a call count above zero in `taken` (a take after the request, its counts
 * since the take before), by file: files in path order, functions in source order. Each function is one
 * entry (told apart by its source offset), so two anonymous ones stay two.
 */
export function coverageWalk(taken: readonly ScriptCoverageLike[], scope: WalkScope): Walk {
  const files: WalkedFile[] = [];
  for (const script of taken) {
    const file = scopedFile(script.url, scope);
    if (file === null) continue;
    const functions = ranFunctions(script);
    if (functions.length > 0) files.push({ file, functions });
  }
  files.sort((a, b) => a.file.localeCompare(b.file));
  const all = files.flatMap((file) => file.functions);
  return { files, functionCount: all.length, callCount: all.reduce((sum, fn) => sum + fn.calls, 0) };
}

function ranFunctions(script: ScriptCoverageLike): WalkedFunction[] {
  const ran: { offset: number; fn: WalkedFunction }[] = [];
  for (const fn of script.functions) {
    const range = fn.ranges[0];
    if (range === undefined || LOADER_HELPERS.has(fn.functionName)) continue;
    // With `detailed: false` a function's first range is the function itself, counted per call.
    const calls = range.count;
    if (calls > 0)
      ran.push({ offset: range.startOffset, fn: { name: fn.functionName || '(anonymous)', calls } });
  }
  return ran.sort((a, b) => a.offset - b.offset).map((entry) => entry.fn);
}

/**
 * Several takes of one request as one (each take holds the counts since the one before): the counts summed
 * per function, told apart by script and source offset.
 */
export function mergeTakes(...takes: readonly (readonly ScriptCoverageLike[])[]): ScriptCoverageLike[] {
  const byUrl = new Map<string, Map<number, ScriptCoverageLike['functions'][number]>>();
  for (const take of takes)
    for (const script of take) {
      let functions = byUrl.get(script.url);
      if (functions === undefined) byUrl.set(script.url, (functions = new Map()));
      for (const fn of script.functions) {
        const range = fn.ranges[0];
        if (range === undefined) continue;
        const seen = functions.get(range.startOffset);
        const count = (seen?.ranges[0]?.count ?? 0) + range.count;
        functions.set(range.startOffset, { functionName: fn.functionName, ranges: [{ ...range, count }] });
      }
    }
  return [...byUrl].map(([url, functions]) => ({ url, functions: [...functions.values()] }));
}

/** The file's path under the root, or null when it is outside the folder, a test or test support. */
function scopedFile(url: string, scope: WalkScope): string | null {
  if (!url.startsWith('file:')) return null;
  // A loader may add a query (`?v=…`) to a module's URL.
  const relative = path
    .relative(scope.root, fileURLToPath(url.split('?')[0] ?? url))
    .split(path.sep)
    .join('/');
  if (!relative.startsWith(`${scope.folder}/`)) return null;
  if (/\.test\.[cm]?[jt]sx?$/.test(relative) || relative.includes('/test-support/')) return null;
  return relative;
}
