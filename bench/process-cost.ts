/**
 * What a workload costs the process that serves it, per request: CPU time (from /proc) and bytes allocated
 * on its V8 heap (from `heap-meter.mjs`, which the bench loads into the daemon).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, type ChildHandle } from './proc.js';
import { median } from './stats.js';

/** The module that counts a process's heap allocations: `node --import <HEAP_METER> …`. */
export const HEAP_METER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'heap-meter.mjs');

const METER_LINE = /heap-meter (\d+)\n/;

/** Bytes `child` has allocated on its V8 heap since it started; it must run with {@link HEAP_METER}. */
export function heapAllocated(child: ChildHandle, timeoutMs = 5000): Promise<number> {
  const stdout = child.child.stdout;
  if (!stdout) return Promise.reject(new Error('the child has no stdout to read the heap meter from'));
  return new Promise((resolve, reject) => {
    let seen = '';
    const done = (error: Error | null, bytes = 0): void => {
      clearTimeout(timer);
      stdout.off('data', onData);
      if (error) reject(error);
      else resolve(bytes);
    };
    const onData = (text: string): void => {
      seen += text;
      const match = METER_LINE.exec(seen);
      if (match?.[1]) done(null, Number(match[1]));
    };
    const timer = setTimeout(() => done(new Error(`no heap-meter line within ${timeoutMs} ms`)), timeoutMs);
    stdout.on('data', onData);
    process.kill(child.pid, 'SIGUSR2');
  });
}

/** What each request of a workload cost its process. */
export interface RequestCost {
  /** CPU time, user and system, µs per request. */
  cpuUs: number;
  /** Bytes allocated on the V8 heap, KB per request. */
  heapKb: number;
}

/**
 * Runs `workload` and tells what each of its requests cost `child`: its CPU time and heap allocations over
 * the run, divided by the requests the workload says it sent (`sent`, a warm-up's among them).
 */
export async function withCost<T extends { sent: number }>(
  child: ChildHandle,
  workload: () => Promise<T>,
): Promise<{ result: T; cost: RequestCost }> {
  const cpuBefore = cpuMs(child.pid);
  const heapBefore = await heapAllocated(child);
  const result = await workload();
  const heapAfter = await heapAllocated(child);
  const cpuAfter = cpuMs(child.pid);
  const sent = Math.max(1, result.sent);
  return {
    result,
    cost: { cpuUs: ((cpuAfter - cpuBefore) * 1000) / sent, heapKb: (heapAfter - heapBefore) / 1024 / sent },
  };
}

/** Per-request costs by name (a target, a face), one per round; their medians at the end. */
export class CostSamples<K extends string> {
  readonly #samples = new Map<K, RequestCost[]>();

  add(key: K, cost: RequestCost): void {
    const samples = this.#samples.get(key) ?? [];
    samples.push(cost);
    this.#samples.set(key, samples);
  }

  /** The median over rounds of each figure (NaN when none was taken). */
  median(key: K): RequestCost {
    const samples = this.#samples.get(key) ?? [];
    return { cpuUs: median(samples.map((s) => s.cpuUs)), heapKb: median(samples.map((s) => s.heapKb)) };
  }

  /** Each round's figure of `key` over the same round's of `base`: the median of those ratios. */
  pairedRatio(key: K, base: K, figure: keyof RequestCost): number {
    const mine = this.#samples.get(key) ?? [];
    const theirs = this.#samples.get(base) ?? [];
    return median(mine.map((s, i) => s[figure] / (theirs[i]?.[figure] ?? Number.NaN)));
  }
}
