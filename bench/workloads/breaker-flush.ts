import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { BENCH_SET, benchConfig, catalogueEnv } from '../bench-config.js';
import { chatBody, openPool, timedRequest } from '../load-client.js';
import { median, quantile, elapsedMs } from '../stats.js';
import { DEFAULT_CONFIG } from '../../router/config/schema.js';
import { initialBreaker, recordFailure } from '../../router/state/breaker.js';
import { BreakerStore } from '../../router/state/breaker-store.js';
import { startRouter } from '../../router/daemon/start-router.js';
import { systemTime } from '../../router/state/clock.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const settings = DEFAULT_CONFIG.router.breaker;
/** The daemon's persistence debounce: a busy router writes its breaker file this often. */
const FLUSH_EVERY_MS = 2000;

export interface FlushSample {
  entries: number;
  /** Median wall time of one flush (serialise, write, fsync, rename). */
  flushMs: number;
  /** Median of the longest event-loop stall within each flush: the part of a flush on the request path. */
  loopBlockMs: number;
}

export interface FlushP99Sample {
  p99Without: number;
  p99With: number;
  errors: number;
}

/** `count` breaker records over 20 providers, a third of them with failures, as a state file payload. */
function bigBreakerFile(count: number, now: number): string {
  const breakers: Record<string, unknown> = {};
  for (let i = 0; i < count; i += 1) {
    let rec = initialBreaker(now, settings);
    for (let f = 0; f < i % 3; f += 1) rec = recordFailure(rec, 'server_error', now, settings);
    breakers[`prov${i % 20}/model-${i}`] = rec;
  }
  return JSON.stringify({ version: 1, savedAt: now, breakers });
}

/** Measures the longest gap between event-loop turns until `stop()`: how long the loop was held. */
function stallProbe(): { stop: () => number } {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      running = false;
      return Math.max(longest, performance.now() - last);
    },
  };
}

/** Times `flushes` flushes of a BreakerStore holding `entries` records (one record changed before each). */
export async function measureFlush(entries: number, flushes: number): Promise<FlushSample> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-bench-flush-'));
  try {
    const store = await bigStore(dir, entries);
    const times: number[] = [];
    const stalls: number[] = [];
    for (let i = 0; i < flushes; i += 1) {
      store.recordFailure(`prov${i % 20}/model-${i}`, 'timeout');
      const stall = stallProbe();
      const start = process.hrtime.bigint();
      await store.flush();
      times.push(elapsedMs(start));
      stalls.push(stall.stop());
    }
    await store.close();
    return { entries: store.keys().length, flushMs: median(times), loopBlockMs: median(stalls) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Opens a BreakerStore over a file of `entries` records. */
async function bigStore(dir: string, entries: number): Promise<BreakerStore> {
  const file = path.join(dir, 'breakers.json');
  await writeFile(file, bigBreakerFile(entries, Date.now()));
  const store = new BreakerStore({
    file,
    time: systemTime,
    settings: () => settings,
    debounceMs: 3_600_000,
    logger: silent,
  });
  await store.load();
  return store;
}

/** Sequential requests to `url`; p99 in ms. */
async function p99Of(url: string, requests: number): Promise<{ p99: number; errors: number }> {
  const pool = openPool(url, 1);
  try {
    const body = chatBody(`fcm:${BENCH_SET}`, false);
    const samples: number[] = [];
    let errors = 0;
    for (let i = 0; i < requests; i += 1) {
      const reply = await timedRequest(pool, body);
      if (!reply.ok) errors += 1;
      samples.push(reply.ms);
    }
    return { p99: quantile(samples, 0.99), errors };
  } finally {
    await pool.close();
  }
}

/**
 * Request p99 of an in-process router, alone and then while a 10 000-entry breaker store in the same
 * process is changed and flushed at the daemon's debounce (every 2 s): what a big flush costs the requests
 * sharing its event loop.
 */
export async function measureFlushP99(
  upstream: string,
  entries: number,
  requests: number,
): Promise<FlushP99Sample> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-bench-flushp99-'));
  try {
    await writeFile(path.join(dir, 'config.json'), JSON.stringify(benchConfig(upstream, 1000)));
    const router = await startRouter({
      port: 0,
      stateDir: dir,
      env: catalogueEnv(),
      logger: silent,
      // The catalogue's placeholder keys must never reach a real provider's model list.
      discoveryTickMs: 0,
    });
    const store = await bigStore(dir, entries);
    try {
      await p99Of(router.url, 200);
      const without = await p99Of(router.url, requests);
      let flushing = true;
      const flusher = (async () => {
        for (let i = 0; flushing; i += 1) {
          store.recordFailure(`prov${i % 20}/model-${i}`, 'timeout');
          await store.flush();
          await delay(FLUSH_EVERY_MS);
        }
      })();
      const withFlush = await p99Of(router.url, requests);
      flushing = false;
      await flusher;
      return { p99Without: without.p99, p99With: withFlush.p99, errors: without.errors + withFlush.errors };
    } finally {
      await store.close();
      await router.stop({ graceMs: 1000 });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
