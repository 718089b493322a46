import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { breakerSchema, type BreakerSettings } from '../config/schema.js';
import { BREAKER_TTL_MS, BreakerStore } from './breaker-store.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

const T0 = 1_700_000_000_000;
const DAY = 24 * 60 * 60 * 1000;

function makeStore(file: string, options: { debounceMs?: number; settings?: Partial<BreakerSettings> } = {}) {
  const time = new TestClock(T0);
  const changes: string[] = [];
  const logger = recordingLogger();
  let settings: BreakerSettings = { ...breakerSchema.parse({}), ...options.settings };
  const store = new BreakerStore({
    file,
    time,
    settings: () => settings,
    debounceMs: options.debounceMs ?? 60_000,
    logger,
    onChange: (key) => changes.push(key),
  });
  const setSettings = (next: Partial<BreakerSettings>) => {
    settings = { ...settings, ...next };
  };
  return { store, time, changes, logger, setSettings };
}

function record(state: string, updatedAt: number, extra: Record<string, unknown> = {}) {
  return {
    state,
    consecutiveFailures: 3,
    tripCount: 1,
    cooldownMs: 30_000,
    openedAt: state === 'OPEN' || state === 'HALF_OPEN' ? updatedAt : null,
    lastFailureKind: 'timeout',
    lastFailureAt: updatedAt,
    updatedAt,
    ...extra,
  };
}

test('an unknown key reads as a fresh CLOSED record that is not stored', async () => {
  await withDir(async (dir) => {
    const { store, changes } = makeStore(join(dir, 'breakers.json'));
    const rec = store.get('groq/llama');
    assert.equal(rec.state, 'CLOSED');
    assert.equal(rec.tripCount, 0);
    store.recordSuccess('groq/llama', null);
    assert.deepEqual(store.keys(), []);
    assert.deepEqual(changes, []);
    await store.close();
  });
});

test('failures open the breaker; get() settles it to HALF_OPEN lazily and reports that change once', async () => {
  await withDir(async (dir) => {
    const { store, time, changes } = makeStore(join(dir, 'breakers.json'));
    store.recordFailure('groq/llama', 'timeout');
    store.recordFailure('groq/llama', 'timeout');
    assert.equal(store.get('groq/llama').state, 'DEGRADED');
    store.recordFailure('groq/llama', 'empty_choices');
    assert.equal(store.get('groq/llama').state, 'OPEN');
    assert.equal(changes.length, 3);

    time.set(T0 + 29_999);
    assert.equal(store.get('groq/llama').state, 'OPEN');
    assert.equal(changes.length, 3);
    time.set(T0 + 30_000);
    assert.equal(store.get('groq/llama').state, 'HALF_OPEN');
    assert.equal(store.get('groq/llama').state, 'HALF_OPEN');
    assert.equal(changes.length, 4);

    store.recordSuccess('groq/llama', 1);
    const closed = store.get('groq/llama');
    assert.equal(closed.state, 'CLOSED');
    assert.equal(closed.tripCount, 1);
    assert.equal(changes.length, 5);
    await store.close();
  });
});

test('settings are read live: a lower threshold applies at the next failure', async () => {
  await withDir(async (dir) => {
    const { store, setSettings } = makeStore(join(dir, 'breakers.json'));
    store.recordFailure('a/m', 'server_error');
    setSettings({ failureThreshold: 2 });
    store.recordFailure('a/m', 'server_error');
    assert.equal(store.get('a/m').state, 'OPEN');
    await store.close();
  });
});

test('one trial slot per model', async () => {
  await withDir(async (dir) => {
    const { store } = makeStore(join(dir, 'breakers.json'));
    assert.equal(store.isTrialBusy('a/m'), false);
    assert.equal(store.tryAcquireTrial('a/m'), true);
    assert.equal(store.isTrialBusy('a/m'), true);
    assert.equal(store.tryAcquireTrial('a/m'), false);
    assert.equal(store.tryAcquireTrial('b/m'), true, 'slots are per model');
    store.releaseTrial('a/m');
    assert.equal(store.isTrialBusy('a/m'), false);
    assert.equal(store.tryAcquireTrial('a/m'), true);
    await store.close();
  });
});

test('reset gives a fresh CLOSED record with tripCount 0', async () => {
  await withDir(async (dir) => {
    const { store, changes } = makeStore(join(dir, 'breakers.json'));
    for (let i = 0; i < 3; i += 1) store.recordFailure('a/m', 'server_error');
    changes.length = 0;
    store.reset('a/m');
    const rec = store.get('a/m');
    assert.equal(rec.state, 'CLOSED');
    assert.equal(rec.tripCount, 0);
    assert.equal(rec.consecutiveFailures, 0);
    assert.deepEqual(changes, ['a/m']);
    store.reset('never/seen');
    assert.deepEqual(changes, ['a/m']);
    await store.close();
  });
});

test('state survives a restart: OPEN stays OPEN, HALF_OPEN loads as OPEN, file mode 0600', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'state', 'breakers.json');
    const a = makeStore(file);
    for (let i = 0; i < 3; i += 1) a.store.recordFailure('half/m', 'server_error');
    a.time.set(T0 + 20_000);
    for (let i = 0; i < 3; i += 1) a.store.recordFailure('open/m', 'server_error');
    for (let i = 0; i < 2; i += 1) a.store.recordFailure('degraded/m', 'timeout');
    a.time.set(T0 + 30_000);
    assert.equal(a.store.get('half/m').state, 'HALF_OPEN');
    assert.equal(a.store.tryAcquireTrial('half/m'), true);
    await a.store.close();
    assert.equal((await stat(file)).mode & 0o777, 0o600);

    const b = makeStore(file);
    b.time.set(T0 + 30_000);
    await b.store.load();
    assert.deepEqual(b.store.keys().sort(), ['degraded/m', 'half/m', 'open/m']);
    const degraded = b.store.get('degraded/m');
    assert.equal(degraded.state, 'DEGRADED');
    assert.equal(degraded.lastFailureKind, 'timeout');
    const open = b.store.get('open/m');
    assert.equal(open.state, 'OPEN');
    assert.equal(open.openedAt, T0 + 20_000);
    assert.equal(open.tripCount, 1);
    assert.equal(open.cooldownMs, 30_000);

    // half/m comes back OPEN: the lazy OPEN → HALF_OPEN step is seen again, and its trial slot is free.
    b.changes.length = 0;
    assert.equal(b.store.get('half/m').state, 'HALF_OPEN');
    assert.deepEqual(b.changes, ['half/m']);
    assert.equal(b.store.isTrialBusy('half/m'), false);
    await b.store.close();
  });
});

test('a HALF_OPEN entry whose cooldown has not passed by the loading clock loads as OPEN', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'breakers.json');
    const entry = record('HALF_OPEN', T0 - 10_000);
    await writeFile(file, JSON.stringify({ version: 1, savedAt: T0, breakers: { 'x/m': entry } }));
    const { store } = makeStore(file);
    await store.load();
    const rec = store.get('x/m');
    assert.equal(rec.state, 'OPEN');
    assert.equal(rec.openedAt, T0 - 10_000);
    await store.close();
  });
});

test('entries idle for more than 30 days are dropped on load', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'breakers.json');
    const a = makeStore(file);
    for (let i = 0; i < 3; i += 1) a.store.recordFailure('old/m', 'server_error');
    a.time.set(T0 + 20 * DAY);
    for (let i = 0; i < 3; i += 1) a.store.recordFailure('recent/m', 'server_error');
    await a.store.close();

    const b = makeStore(file);
    b.time.set(T0 + BREAKER_TTL_MS + 1);
    await b.store.load();
    assert.deepEqual(b.store.keys(), ['recent/m']);
    assert.equal(b.store.get('old/m').state, 'CLOSED');
    await b.store.close();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { breakers: Record<string, unknown> };
    assert.deepEqual(Object.keys(saved.breakers), ['recent/m'], 'the cleaned state is written back');
  });
});

test('an invalid entry is dropped with a warning; the others load', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'breakers.json');
    const breakers = {
      'good/m': record('DEGRADED', T0),
      'odd-state/m': record('HALFWAY', T0),
      'extra-field/m': record('CLOSED', T0, { lastError: 'boom' }),
      'open-without-time/m': record('OPEN', T0, { openedAt: null }),
      'bad-kind/m': record('CLOSED', T0, { lastFailureKind: 'gremlins' }),
    };
    await writeFile(file, JSON.stringify({ version: 1, savedAt: T0, breakers }));
    const { store, logger } = makeStore(file);
    await store.load();
    assert.deepEqual(store.keys(), ['good/m']);
    assert.equal(logger.lines.filter((line) => line.startsWith('warn ')).length, 4);
    await store.close();
  });
});

test('a corrupt breaker file is moved aside with a warning and the store starts clean', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'breakers.json');
    await writeFile(file, '{"version":1,"savedAt":');
    const { store, logger } = makeStore(file);
    await store.load();
    assert.deepEqual(store.keys(), []);
    const names = await readdir(dir);
    assert.equal(names.length, 1);
    assert.match(names[0] ?? '', /^breakers\.json\.corrupt-/);
    assert.equal(logger.lines.length, 1);
    assert.match(logger.lines[0] ?? '', /^warn /);
    await store.close();
  });
});

test('changes are debounced into one write; close flushes what is pending', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'breakers.json');
    const { store, time } = makeStore(file, { debounceMs: 50 });
    for (let i = 0; i < 10; i += 1) store.recordFailure('a/m', 'server_error');
    time.advance(49);
    await assert.rejects(stat(file), { code: 'ENOENT' });
    time.advance(1); // the debounce timer fires: the write starts
    await store.flush(); // queued behind it, with nothing left to write
    const first = JSON.parse(await readFile(file, 'utf8')) as {
      breakers: Record<string, { consecutiveFailures: number }>;
    };
    assert.equal(first.breakers['a/m']?.consecutiveFailures, 10);

    store.recordFailure('b/m', 'timeout');
    await store.close();
    const second = JSON.parse(await readFile(file, 'utf8')) as {
      version: number;
      breakers: Record<string, unknown>;
    };
    assert.equal(second.version, 1);
    assert.deepEqual(Object.keys(second.breakers).sort(), ['a/m', 'b/m']);
  });
});

test('a success closes a tripped breaker only for the trip it was sent to', async () => {
  await withDir(async (dir) => {
    const { store, time } = makeStore(join(dir, 'breakers.json'));
    for (let i = 0; i < 3; i += 1) store.recordFailure('groq/llama', 'timeout');
    assert.equal(store.get('groq/llama').tripCount, 1);
    time.set(T0 + 30_000);
    store.recordFailure('groq/llama', 'timeout');
    assert.equal(store.get('groq/llama').tripCount, 2, 'the trial failed: a second trip');
    store.recordSuccess('groq/llama', 1);
    assert.equal(store.get('groq/llama').state, 'OPEN', 'sent during the first trip');
    store.recordSuccess('groq/llama', 2);
    assert.equal(store.get('groq/llama').state, 'CLOSED');
    await store.close();
  });
});
