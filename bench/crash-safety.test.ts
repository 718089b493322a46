import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import type { HistoryResponse } from '../router/api-types.js';
import type { ConfigInput } from '../router/config/schema.js';
import { mulberry32 } from './prng.js';
import { startChild, type ChildHandle } from './proc.js';
import { checkStateDir } from './soak-state.js';

const DAEMON = path.join(path.dirname(fileURLToPath(import.meta.url)), 'crash-daemon.ts');
const ITERATIONS = 20;
/** The crash daemon's persistence debounce. */
const DEBOUNCE_MS = 50;
/**
 * A request finished this long before the kill must be on disk: the debounce, plus one write of the
 * 500-entry history already in flight (serialise, fsync, rename) that the kill may cut short.
 */
const LOSS_BOUND_MS = DEBOUNCE_MS + 450;
/** History keeps the newest 500 entries; with 4 requests in flight at the kill, a few more may push old ones out. */
const RETAINED = 500 - 8;

let upstream: http.Server;
let upstreamUrl = '';
let calls = 0;

const completion = JSON.stringify({
  choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }],
});
const empty = JSON.stringify({ choices: [] });

before(async () => {
  // `flaky` alternates between an empty 200 and an answer, so its breaker changes on every request;
  // `down` always fails, so it trips OPEN and comes back HALF_OPEN; `ok` always serves.
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      const url = req.url ?? '';
      if (url.startsWith('/down/'))
        return void res
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"down"}}');
      const body = url.startsWith('/flaky/') && calls % 2 === 0 ? empty : completion;
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

after(async () => {
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

function config(): ConfigInput {
  return {
    providers: {
      flaky: { baseUrl: `${upstreamUrl}/flaky/v1`, models: ['f1', 'f2', 'f3'] },
      down: { baseUrl: `${upstreamUrl}/down/v1`, models: ['d1', 'd2'] },
      ok: { baseUrl: `${upstreamUrl}/ok/v1`, models: ['o1'] },
    },
    sets: { crash: ['flaky/f1', 'down/d1', 'flaky/f2', 'down/d2', 'flaky/f3', 'ok/o1'] },
    activeSet: 'crash',
    router: { breaker: { failureThreshold: 2, initialCooldownMs: 1000, maxCooldownMs: 2000 } },
  };
}

async function startDaemon(dir: string): Promise<ChildHandle> {
  return startChild([DAEMON, dir, path.join(dir, 'config.json')], {
    env: { PATH: process.env.PATH ?? '', HOME: dir },
  });
}

/** Sends requests from `concurrency` clients until `signal` aborts; returns each finished request's id and time. */
async function load(
  url: string,
  prefix: string,
  concurrency: number,
  signal: AbortSignal,
): Promise<Map<string, number>> {
  const done = new Map<string, number>();
  const pool = new Pool(url, { connections: concurrency });
  let n = 0;
  const worker = async (): Promise<void> => {
    while (!signal.aborted) {
      const id = `${prefix}-${n}`;
      n += 1;
      try {
        const res = await pool.request({
          path: '/v1/chat/completions',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': id },
          body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }),
        });
        await res.body.text();
        done.set(id, performance.now());
      } catch {
        return; // the daemon is gone
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await pool.destroy();
  return done;
}

test(`kill -9 under load, ${ITERATIONS} times: every restart loads whole state and loses at most the debounce window`, async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-crash-'));
  try {
    await writeFile(path.join(dir, 'config.json'), JSON.stringify(config()));
    const random = mulberry32(5);
    let daemon = await startDaemon(dir);
    let worstLossMs = 0;
    let strays = 0;
    for (let i = 0; i < ITERATIONS; i += 1) {
      const stop = new AbortController();
      const loading = load(daemon.url, `crash-${i}`, 4, stop.signal);
      await delay(150 + Math.floor(random() * 600));
      const killedAt = performance.now();
      await daemon.kill();
      stop.abort();
      const finished = await loading;
      assert.ok(finished.size > 0, `iteration ${i}: no request finished before the kill`);

      const state = await checkStateDir(dir);
      const problems = state.problems.filter((problem) => !problem.includes('unexpected file'));
      strays += state.problems.length - problems.length;
      assert.deepEqual(problems, [], `iteration ${i}: state after kill -9`);
      assert.ok(state.historyIds !== null, `iteration ${i}: history.json missing`);
      const kept = new Set(state.historyIds);
      const newestFirst = [...finished].sort((a, b) => b[1] - a[1]);
      for (const [rank, [id, at]] of newestFirst.entries()) {
        // Older ones may have left the ring (capacity 500), which is not a loss.
        if (kept.has(id) || rank >= RETAINED) continue;
        const lossMs = killedAt - at;
        worstLossMs = Math.max(worstLossMs, lossMs);
        assert.ok(
          lossMs <= LOSS_BOUND_MS,
          `iteration ${i}: ${id} finished ${lossMs.toFixed(0)} ms before the kill but is not on disk`,
        );
      }

      daemon = await startDaemon(dir);
      const res = await fetch(`${daemon.url}/api/history?limit=500`);
      const history = (await res.json()) as HistoryResponse;
      assert.equal(
        history.entries.length,
        state.historyIds.length,
        `iteration ${i}: the restart loaded every saved entry`,
      );
      assert.equal((await fetch(`${daemon.url}/api/state`)).status, 200);
    }
    await daemon.stop();
    const final = await checkStateDir(dir);
    assert.deepEqual(
      final.problems.filter((problem) => !problem.includes('unexpected file')),
      [],
    );
    assert.ok(final.breakerCount >= 3, 'breaker state was persisted');
    t.diagnostic(
      `worst loss ${worstLossMs.toFixed(0)} ms before the kill (bound ${LOSS_BOUND_MS} ms); stray temp files seen ${strays}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a corrupt or truncated state file is moved aside with its bytes, and the router still starts', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-crash-corrupt-'));
  try {
    await writeFile(path.join(dir, 'config.json'), JSON.stringify(config()));
    const garbage = '{"version":1,"savedAt":1,"breakers":{"flaky/f1":{"state":"OP';
    const wrongShape = JSON.stringify({ version: 1, savedAt: 1, entries: 'not a list' });
    await writeFile(path.join(dir, 'breakers.json'), garbage);
    await writeFile(path.join(dir, 'history.json'), wrongShape);
    const daemon = await startDaemon(dir);
    try {
      assert.equal((await fetch(`${daemon.url}/api/state`)).status, 200);
      const names = await readdir(dir);
      const breakersAside = names.find((name) => name.startsWith('breakers.json.corrupt-'));
      const historyAside = names.find((name) => name.startsWith('history.json.corrupt-'));
      assert.ok(breakersAside && historyAside, `moved aside: ${names.join(', ')}`);
      assert.equal(await readFile(path.join(dir, breakersAside), 'utf8'), garbage);
      assert.equal(await readFile(path.join(dir, historyAside), 'utf8'), wrongShape);
    } finally {
      await daemon.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
