import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RouterEvent, RouterEventType } from '../router/index.js';
import type { RouterHandle } from '../router/index.js';
import { ownedSource } from './router-source.js';
import { entry, model, snapshot } from './testing/fixtures.js';

/** A RouterHandle stand-in with the documented behaviour, for the adapter alone. */
function fakeHandle() {
  const listeners = new Map<RouterEventType, Set<(event: RouterEvent) => void>>();
  let paused = false;
  const calls: string[] = [];
  const handle = {
    url: 'http://127.0.0.1:19280',
    port: 19280,
    host: '127.0.0.1',
    stateDir: '/tmp/x',
    configPath: '/tmp/x/config.json',
    version: '0.1.0',
    state: () => snapshot([model('a/x')], { paused }),
    history: (limit?: number) => {
      calls.push(`history(${limit})`);
      return { entries: [entry({ requestId: 'newest' })], stats: {} as never };
    },
    on(type: RouterEventType, listener: (event: RouterEvent) => void) {
      const set = listeners.get(type) ?? new Set();
      set.add(listener);
      listeners.set(type, set);
      return () => set.delete(listener);
    },
    setPaused: (value: boolean) => {
      paused = value;
    },
    isPaused: () => paused,
    stop: async (options?: { graceMs?: number }) => {
      calls.push(`stop(${options?.graceMs})`);
    },
  } as unknown as RouterHandle;
  const emit = (event: RouterEvent): void => listeners.get(event.type)?.forEach((l) => l(event));
  const count = (): number => [...listeners.values()].reduce((n, s) => n + s.size, 0);
  return { handle, emit, count, calls };
}

test('the owned source reads the snapshot and newest entry in-process', async () => {
  const { handle, calls } = fakeHandle();
  const source = ownedSource(handle);
  assert.equal(source.mode, 'owned');
  assert.equal(source.url, 'http://127.0.0.1:19280');
  const reading = await source.read();
  assert.equal(reading?.state.models[0]?.key, 'a/x');
  assert.equal(reading?.lastEntry?.requestId, 'newest');
  assert.deepEqual(calls, ['history(1)']);
});

test('it forwards all four event types and unsubscribes from all of them', () => {
  const { handle, emit, count } = fakeHandle();
  const seen: string[] = [];
  const off = ownedSource(handle).subscribe((event) => seen.push(event?.type ?? 'null'));
  assert.equal(count(), 4);
  emit({ type: 'request', entry: entry() });
  emit({ type: 'router', paused: true });
  emit({ type: 'config', activeSet: 'x', sets: {}, changed: [] });
  emit({ type: 'breaker', model: model('a/x') });
  assert.deepEqual(seen, ['request', 'router', 'config', 'breaker']);
  off();
  assert.equal(count(), 0);
});

test('pause goes to the handle and close stops the router gracefully', async () => {
  const { handle, calls } = fakeHandle();
  const source = ownedSource(handle, { stopGraceMs: 7000 });
  await source.setPaused(true);
  assert.equal(handle.isPaused(), true);
  await source.close();
  assert.deepEqual(calls, ['stop(7000)']);
});

test('close with a grace of its own (a session that ends) passes it to the router', async () => {
  const { handle, calls } = fakeHandle();
  await ownedSource(handle, { stopGraceMs: 7000 }).close({ graceMs: 1000 });
  assert.deepEqual(calls, ['stop(1000)']);
});
