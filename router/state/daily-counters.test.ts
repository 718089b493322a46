import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AttemptView, HistoryEntry, RequestOutcome } from '../api-types.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { countEntry, DailyCounters, emptyDayCounts, localDayKey, MAX_DAYS } from './daily-counters.js';
import { TestClock } from '../test-support/test-clock.js';

const NOON = new Date(2030, 0, 15, 12, 0, 0).getTime();
const DAY = 24 * 3600_000;

function attempt(ok: boolean): AttemptView {
  return {
    model: 'p/m',
    status: ok ? 200 : 500,
    kind: ok ? null : 'server_error',
    latencyMs: 5,
    breakerBefore: 'CLOSED',
    role: 'normal',
  };
}

function entry(
  outcome: RequestOutcome,
  attempts: number,
  at: number,
  tokens: [number, number] | null = null,
): HistoryEntry {
  return {
    requestId: `r-${at}-${Math.random()}`,
    at,
    modelRequested: 'fcm',
    set: 'main',
    pinned: null,
    servedModel: outcome === 'served' ? 'p/m' : null,
    outcome,
    stream: false,
    wallMs: 10,
    attempts: Array.from({ length: attempts }, (_, i) => attempt(outcome === 'served' && i === attempts - 1)),
    skipped: [],
    client: null,
    clientStatus: outcome === 'served' ? 200 : 503,
    lastResortUsed: false,
    source: 'agent',
    api: 'chat',
    usage: tokens ? { promptTokens: tokens[0], completionTokens: tokens[1] } : null,
  };
}

function counters(dir: string, time = new TestClock(NOON), logger = recordingLogger()): DailyCounters {
  return new DailyCounters({ file: join(dir, 'counters.json'), time, debounceMs: 5, logger });
}

test('every request counts, far past the history’s 500 entries; tokens add up', async () => {
  await withDir(async (dir) => {
    const book = counters(dir);
    for (let i = 0; i < 5000; i++) book.record(entry('served', 1, NOON - 1000, [10, 2]));
    book.record(entry('served', 3, NOON - 1000, [0, 5]));
    book.record(entry('all_failed', 4, NOON - 1000));
    book.record(entry('partial', 1, NOON - 1000));
    book.record(entry('no_candidates', 0, NOON - 1000));
    book.record(entry('client_aborted', 1, NOON - 1000));
    book.record(entry('rejected', 0, NOON - 1000));
    assert.deepEqual(book.today(), {
      servedFirstTry: 5000,
      servedAfterFailover: 1,
      failed: 3,
      clientAborted: 1,
      rejected: 1,
      promptTokens: 50_000,
      completionTokens: 10_005,
    });
  });
});

test('days turn at local midnight; yesterday’s requests are not today’s', async () => {
  await withDir(async (dir) => {
    const time = new TestClock(NOON);
    const book = counters(dir, time);
    book.record(entry('served', 1, NOON - DAY));
    book.record(entry('served', 1, NOON));
    assert.equal(book.today().servedFirstTry, 1);
    time.set(NOON + DAY);
    assert.equal(book.today().servedFirstTry, 0, 'a new day starts at zero');
    assert.equal(localDayKey(new Date(2030, 0, 15, 23, 59, 59).getTime()), '2030-01-15');
    assert.equal(localDayKey(new Date(2030, 0, 16, 0, 0, 0).getTime()), '2030-01-16');
  });
});

test('counters are saved and loaded again; only the last days are kept', async () => {
  await withDir(async (dir) => {
    const first = counters(dir);
    for (let day = 0; day < MAX_DAYS + 5; day++) first.record(entry('served', 2, NOON - day * DAY, [1, 1]));
    first.record(entry('served', 1, NOON));
    await first.close();
    const saved = JSON.parse(await readFile(join(dir, 'counters.json'), 'utf8')) as {
      days: Record<string, unknown>;
    };
    assert.equal(Object.keys(saved.days).length, MAX_DAYS);

    const second = counters(dir);
    await second.load();
    assert.deepEqual(second.today(), {
      servedFirstTry: 1,
      servedAfterFailover: 1,
      failed: 0,
      clientAborted: 0,
      rejected: 0,
      promptTokens: 1,
      completionTokens: 1,
    });
  });
});

test('a counters file that fails validation is moved aside and counting starts clean', async () => {
  await withDir(async (dir) => {
    await writeFile(
      join(dir, 'counters.json'),
      JSON.stringify({ version: 1, savedAt: 1, days: { x: { served: -1 } } }),
    );
    const logger = recordingLogger();
    const book = counters(dir, new TestClock(NOON), logger);
    await book.load();
    assert.equal(book.today().servedFirstTry, 0);
    assert.ok(
      logger.lines.some((line) => /counters\.json .*moved to/.test(line)),
      logger.lines.join('\n'),
    );
  });
});

test('dashboard tests and probes stay out of the day’s counts', async () => {
  await withDir(async (dir) => {
    const book = counters(dir);
    book.record({ ...entry('served', 1, NOON - 1000, [10, 2]), source: 'test' });
    book.record({ ...entry('all_failed', 2, NOON - 1000), source: 'probe' });
    book.record(entry('served', 1, NOON - 1000, [1, 1]));
    assert.deepEqual(book.todayStats().today, {
      servedFirstTry: 1,
      servedAfterFailover: 0,
      failed: 0,
      refused: 0,
      promptTokens: 1,
      completionTokens: 1,
    });
  });
});

test('a day counts first tries, failovers and failures (a local fault is one); tokens add up, unknown ones add nothing', () => {
  const counts = emptyDayCounts();
  const withUsage = (at: number, prompt: number | null, completion: number | null): HistoryEntry => ({
    ...entry('served', 1, at),
    usage: { promptTokens: prompt, completionTokens: completion },
  });
  for (const one of [
    entry('served', 1, NOON),
    entry('served', 2, NOON),
    entry('all_failed', 4, NOON),
    entry('no_candidates', 0, NOON),
    entry('partial', 1, NOON, [40, 3]),
    entry('internal_error', 1, NOON),
    entry('client_aborted', 1, NOON),
    entry('rejected', 0, NOON),
    withUsage(NOON, 120, 30),
    withUsage(NOON, null, 7),
  ])
    countEntry(counts, one);
  assert.deepEqual(counts, {
    servedFirstTry: 3,
    servedAfterFailover: 1,
    failed: 4,
    clientAborted: 1,
    rejected: 1,
    promptTokens: 160,
    completionTokens: 40,
  });
});
