import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { HistoryResponse } from '../router/api-types.js';
import type { ConfigInput } from '../router/config/schema.js';
import { missingFromSnapshot, startLoad, untilSaved } from './crash-load.js';
import { mulberry32 } from './prng.js';
import { startChild, type ChildHandle } from './proc.js';
import { checkStateDir } from './soak-state.js';

const DAEMON = path.join(path.dirname(fileURLToPath(import.meta.url)), 'crash-daemon.ts');
const ITERATIONS = 20;
const CLIENTS = 4;
/** Only a hang waits this long for a load to be answered and saved; it normally takes tens of milliseconds. */
const GUARD_MS = 30_000;
/** History keeps the newest 500 entries; with 4 requests in flight at the kill, a few more may push old ones out. */
const RETAINED = 500 - 2 * CLIENTS;
/** Answers read this soon before a save are not held against it (see the check below). */
const GRACE_MS = 250;

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

test(`kill -9 under load, ${ITERATIONS} times: every restart loads whole state, and each save holds every request answered before it`, async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-crash-'));
  const historyFile = path.join(dir, 'history.json');
  try {
    await writeFile(path.join(dir, 'config.json'), JSON.stringify(config()));
    const random = mulberry32(5);
    let daemon = await startDaemon(dir);
    let widestWindowMs = 0;
    let mostUnsaved = 0;
    let strays = 0;
    for (let i = 0; i < ITERATIONS; i += 1) {
      const stop = new AbortController();
      const load = startLoad(daemon.url, `crash-${i}`, CLIENTS, stop.signal);
      // The kill lands at a seeded moment once this load is answered and saved, however slowly a busy
      // machine gets there, so every iteration has saved answers to check.
      assert.ok(
        await untilSaved(historyFile, load.answered, AbortSignal.timeout(GUARD_MS)),
        `iteration ${i}: no save held one of its answers within ${GUARD_MS} ms`,
      );
      await delay(Math.floor(random() * 600));
      const killedAt = Date.now();
      await daemon.kill();
      stop.abort();
      const answered = await load.finished;

      const state = await checkStateDir(dir);
      const problems = state.problems.filter((problem) => !problem.includes('unexpected file'));
      strays += state.problems.length - problems.length;
      assert.deepEqual(problems, [], `iteration ${i}: state after kill -9`);
      assert.ok(state.historyIds && state.historySavedAt !== null, `iteration ${i}: history.json gone`);
      const snapshot = { savedAt: state.historySavedAt, ids: state.historyIds };
      // On two busy cores a client can read its answer a moment before the daemon gets to record it, and
      // rarely much more than a moment: an answer read within GRACE_MS of a save may be in the next one.
      const limits = { inFlight: CLIENTS, retained: RETAINED, graceMs: GRACE_MS };
      const missing = missingFromSnapshot(answered, snapshot, limits);
      assert.deepEqual(missing, [], `iteration ${i}: answered before the last save, yet not in it`);
      // What the kill cost: the answers after the last save (a diagnostic: its size is the machine's speed).
      widestWindowMs = Math.max(widestWindowMs, killedAt - snapshot.savedAt);
      mostUnsaved = Math.max(
        mostUnsaved,
        [...answered.values()].filter((at) => at >= snapshot.savedAt).length,
      );

      daemon = await startDaemon(dir);
      const res = await fetch(`${daemon.url}/api/history?limit=500`);
      const history = (await res.json()) as HistoryResponse;
      assert.equal(
        history.entries.length,
        snapshot.ids.length,
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
      `the kill came at most ${widestWindowMs} ms after the last save, with at most ${mostUnsaved} answers not yet saved; stray temp files seen ${strays}`,
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
