import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryEntry, RequestOutcome } from '../api-types.js';
import { RequestHistory, RingBuffer } from './request-history.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

const T0 = 1_700_000_000_000;

function entry(n: number, outcome: RequestOutcome = 'served', at = T0 + n): HistoryEntry {
  return {
    requestId: `req-${n}`,
    at,
    modelRequested: 'fcm',
    set: 'default',
    pinned: null,
    servedModel: outcome === 'served' ? 'groq/llama' : null,
    outcome,
    stream: true,
    wallMs: 1200,
    attempts: [
      {
        model: 'groq/llama',
        status: 200,
        kind: null,
        latencyMs: 1100,
        breakerBefore: 'CLOSED',
        role: 'normal',
        key: 'abcdef012345',
      },
    ],
    skipped: [{ model: 'cerebras/qwen', reason: 'circuit_open' }],
    client: 'opencode/1.18.33',
    clientStatus: 200,
    lastResortUsed: false,
    source: 'agent',
    api: 'chat',
    usage: { promptTokens: 12, completionTokens: null },
  };
}

function makeHistory(file: string, capacity?: number) {
  const time = new TestClock(T0);
  const logger = recordingLogger();
  const history = new RequestHistory({ file, capacity, time, debounceMs: 60_000, logger });
  return { history, time, logger };
}

const ids = (entries: HistoryEntry[]) => entries.map((e) => e.requestId);

test('a ring of `capacity` entries, listed newest first', async () => {
  await withDir(async (dir) => {
    const { history } = makeHistory(join(dir, 'history.json'), 12);
    for (let n = 1; n <= 20; n += 1) history.add(entry(n));
    const all = history.list(100);
    assert.equal(all.length, 12);
    assert.deepEqual(ids(all.slice(0, 3)), ['req-20', 'req-19', 'req-18']);
    assert.equal(all.at(-1)?.requestId, 'req-9');
    assert.equal(history.stats().retained, 12);
    await history.close();
  });
});

test('the limit defaults to 50 and is clamped to 1..capacity', async () => {
  await withDir(async (dir) => {
    const { history } = makeHistory(join(dir, 'history.json'));
    for (let n = 1; n <= 600; n += 1) history.add(entry(n));
    assert.equal(history.list().length, 50);
    assert.deepEqual(ids(history.list(0)), ['req-600']);
    assert.deepEqual(ids(history.list(-7)), ['req-600']);
    assert.equal(history.list(10_000).length, 500);
    assert.equal(history.list(Number.NaN).length, 50);
    assert.equal(history.list(2.9).length, 2);
    await history.close();
  });
});

test('capacity is at least 10', async () => {
  await withDir(async (dir) => {
    const { history } = makeHistory(join(dir, 'history.json'), 3);
    for (let n = 1; n <= 15; n += 1) history.add(entry(n));
    assert.equal(history.list(100).length, 10);
    await history.close();
  });
});

test('stats keep client aborts out of the success rate', async () => {
  await withDir(async (dir) => {
    const { history } = makeHistory(join(dir, 'history.json'));
    history.add(entry(1, 'served', T0 - 1000));
    history.add(entry(2, 'served', T0 + 1000));
    history.add(entry(3, 'client_aborted', T0 + 2000));
    history.add(entry(4, 'all_failed', T0 + 3000));
    const stats = history.stats();
    assert.equal(stats.successRate, 2 / 3);
    assert.equal(stats.clientAborted, 1);
    await history.close();
  });
});

test('clear empties the history', async () => {
  await withDir(async (dir) => {
    const { history } = makeHistory(join(dir, 'history.json'));
    history.add(entry(1));
    history.clear();
    assert.deepEqual(history.list(), []);
    assert.equal(history.stats().retained, 0);
    await history.close();
  });
});

test('history survives a restart, oldest first on disk, mode 0600', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'history.json');
    const a = makeHistory(file);
    for (let n = 1; n <= 3; n += 1) a.history.add(entry(n));
    await a.history.close();
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { version: number; entries: HistoryEntry[] };
    assert.equal(saved.version, 1);
    assert.deepEqual(ids(saved.entries), ['req-1', 'req-2', 'req-3']);

    const b = makeHistory(file);
    await b.history.load();
    const numbered = (n: number): HistoryEntry => ({ ...entry(n), seq: n });
    assert.deepEqual(b.history.list(), [numbered(3), numbered(2), numbered(1)]);
    await b.history.close();
  });
});

test('an attempt’s marks survive a restart: a probe that never reached its provider, a local server', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'history.json');
    const a = makeHistory(file);
    const probe = entry(1, 'all_failed');
    const [attempt] = probe.attempts;
    assert.ok(attempt);
    probe.attempts = [
      { ...attempt, status: null, kind: 'network_error', unreached: true },
      { ...attempt, model: 'ollama/qwen', status: null, kind: 'network_error', local: true },
    ];
    a.history.add(probe);
    await a.history.close();

    const b = makeHistory(file);
    await b.history.load();
    assert.deepEqual(b.history.list(), [{ ...probe, seq: 1 }]);
    assert.equal(b.logger.lines.length, 0, 'nothing dropped');
    await b.history.close();
  });
});

test('each entry is numbered one after the last, also after a restart and a clear: one request id may recur', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'history.json');
    const a = makeHistory(file);
    for (let n = 1; n <= 3; n += 1) a.history.add({ ...entry(n), requestId: 'same-id' });
    assert.deepEqual(
      a.history.list().map((e) => e.seq),
      [3, 2, 1],
    );
    await a.history.close();

    const b = makeHistory(file);
    await b.history.load();
    b.history.add(entry(4));
    b.history.clear();
    b.history.add(entry(5));
    assert.deepEqual(
      b.history.list().map((e) => [e.requestId, e.seq]),
      [['req-5', 5]],
    );
    await b.history.close();
  });
});

test('a file with more entries than the capacity keeps the newest', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'history.json');
    const entries = Array.from({ length: 30 }, (_, i) => entry(i + 1));
    await writeFile(file, JSON.stringify({ version: 1, savedAt: T0, entries }));
    const { history } = makeHistory(file, 10);
    await history.load();
    assert.deepEqual(ids(history.list(3)), ['req-30', 'req-29', 'req-28']);
    assert.equal(history.list(100).length, 10);
    await history.close();
  });
});

test('invalid entries are dropped on load with one warning', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'history.json');
    const { requestId: _dropped, ...noId } = entry(2);
    const entries = [
      entry(1),
      noId,
      { ...entry(3), outcome: 'exploded' },
      { ...entry(4), prompt: 'text that must never be in history' },
      { ...entry(5), attempts: [{ ...entry(5).attempts[0], kind: 'gremlins' }] },
      'not an object',
      entry(6),
    ];
    await writeFile(file, JSON.stringify({ version: 1, savedAt: T0, entries }));
    const { history, logger } = makeHistory(file);
    await history.load();
    assert.deepEqual(ids(history.list()), ['req-6', 'req-1']);
    assert.deepEqual(logger.lines, ['warn request history: dropped 5 invalid entries']);
    await history.close();
  });
});

describe('RingBuffer', () => {
  it('keeps items in order below capacity', () => {
    const ring = new RingBuffer<number>(4);
    [1, 2, 3].forEach((n) => ring.push(n));
    assert.equal(ring.size, 3);
    assert.deepEqual(ring.toArray(), [1, 2, 3]);
    assert.deepEqual(ring.newest(2), [3, 2]);
  });

  it('overwrites the oldest past capacity, however often it wraps', () => {
    const ring = new RingBuffer<number>(3);
    for (let n = 1; n <= 11; n += 1) ring.push(n);
    assert.equal(ring.size, 3);
    assert.deepEqual(ring.toArray(), [9, 10, 11]);
    assert.deepEqual(ring.newest(10), [11, 10, 9]);
  });

  it('clamps newest() and starts over after clear()', () => {
    const ring = new RingBuffer<string>(2);
    ring.push('a');
    assert.deepEqual(ring.newest(-1), []);
    assert.deepEqual(ring.newest(Number.NaN), []);
    ring.clear();
    assert.equal(ring.size, 0);
    ring.push('b');
    assert.deepEqual(ring.toArray(), ['b']);
  });

  it('has a capacity of at least one', () => {
    const ring = new RingBuffer<number>(0);
    ring.push(1);
    ring.push(2);
    assert.deepEqual(ring.toArray(), [2]);
  });
});
