import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { RouterEvent } from '../../../router/api-types.js';
import type { ConnectionCause } from './connection-problem.js';
import { openEventStream, type ConnectionStatus, type EventSourceLike } from './event-stream.js';

class FakeSource implements EventSourceLike {
  static made: FakeSource[] = [];
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  listeners = new Map<string, (event: MessageEvent<string>) => void>();
  constructor(readonly url: string) {
    FakeSource.made.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, listener);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data: string): void {
    this.listeners.get(type)?.(new MessageEvent(type, { data }));
  }
}

describe('openEventStream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSource.made = [];
  });
  afterEach(() => vi.useRealTimers());

  test('delivers parsed events, reconnects with growing delays and resyncs after a reconnect', () => {
    const events: RouterEvent[] = [];
    const statuses: ConnectionStatus[] = [];
    let resyncs = 0;
    const stop = openEventStream({
      url: '/api/events',
      onEvent: (e) => events.push(e),
      onStatus: (s) => statuses.push(s),
      onResync: () => (resyncs += 1),
      createSource: (url) => new FakeSource(url),
      now: () => 0,
    });
    const first = FakeSource.made[0];
    first?.onopen?.(new Event('open'));
    first?.emit('router', '{"type":"router","paused":true}');
    first?.emit('router', '{broken');
    expect(events).toEqual([{ type: 'router', paused: true }]);

    first?.onerror?.(new Event('error'));
    expect(first?.closed).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 1 });
    const firstDelay =
      statuses.at(-1)?.state === 'retrying' ? (statuses.at(-1) as { retryAt: number }).retryAt : 0;
    expect(firstDelay).toBeGreaterThanOrEqual(800);
    expect(firstDelay).toBeLessThanOrEqual(1200);

    vi.advanceTimersByTime(1200);
    const second = FakeSource.made[1];
    expect(second).toBeDefined();
    second?.onerror?.(new Event('error'));
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 2 });

    vi.advanceTimersByTime(2400);
    FakeSource.made[2]?.onopen?.(new Event('open'));
    expect(statuses.at(-1)).toMatchObject({ state: 'open' });
    expect(resyncs).toBe(1);

    stop();
    expect(FakeSource.made[2]?.closed).toBe(true);
  });
});

describe('downSince', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSource.made = [];
  });
  afterEach(() => vi.useRealTimers());

  test('is the moment the stream first broke, kept through every retry, and gone once it opens', () => {
    const statuses: ConnectionStatus[] = [];
    let clock = 1_000;
    const stop = openEventStream({
      url: '/api/events',
      onEvent: () => undefined,
      onStatus: (s) => statuses.push(s),
      onResync: () => undefined,
      createSource: (url) => new FakeSource(url),
      now: () => clock,
    });
    expect(statuses.at(-1)).toEqual({ state: 'connecting' });
    FakeSource.made[0]?.onopen?.(new Event('open'));
    clock = 5_000;
    FakeSource.made[0]?.onerror?.(new Event('error'));
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', downSince: 5_000 });
    clock = 7_000;
    vi.advanceTimersByTime(1200);
    expect(statuses.at(-1)).toEqual({ state: 'connecting', downSince: 5_000, cause: 'unreachable' });
    FakeSource.made[1]?.onerror?.(new Event('error'));
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 2, downSince: 5_000 });
    vi.advanceTimersByTime(2400);
    FakeSource.made[2]?.onopen?.(new Event('open'));
    expect(statuses.at(-1)).toEqual({ state: 'open', since: 7_000 });
    stop();
  });
});

describe('the cause of a break', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSource.made = [];
  });
  afterEach(() => vi.useRealTimers());

  /** A probe whose answers the test gives, one per call, in order. */
  function heldProbe(): {
    probe: () => Promise<ConnectionCause>;
    answer(cause: ConnectionCause): Promise<void>;
  } {
    const pending: ((cause: ConnectionCause) => void)[] = [];
    return {
      probe: () => new Promise((resolve) => pending.push(resolve)),
      answer: async (cause) => {
        pending.shift()?.(cause);
        await vi.advanceTimersByTimeAsync(0);
      },
    };
  }

  function open(probe: () => Promise<ConnectionCause>): { statuses: ConnectionStatus[]; stop: () => void } {
    const statuses: ConnectionStatus[] = [];
    const stop = openEventStream({
      url: '/api/events',
      onEvent: () => undefined,
      onStatus: (s) => statuses.push(s),
      onResync: () => undefined,
      probe,
      createSource: (url) => new FakeSource(url),
      now: () => 1_000,
    });
    return { statuses, stop };
  }

  test('a first connect refused says nothing but "connecting" until the probe tells why, then keeps that cause', async () => {
    const { probe, answer } = heldProbe();
    const { statuses, stop } = open(probe);
    FakeSource.made[0]?.onerror?.(new Event('error'));
    expect(statuses).toEqual([{ state: 'connecting' }]);
    await answer('token');
    expect(statuses.at(-1)).toMatchObject({
      state: 'retrying',
      attempt: 1,
      downSince: 1_000,
      cause: 'token',
    });

    vi.advanceTimersByTime(1200);
    expect(statuses.at(-1)).toEqual({ state: 'connecting', downSince: 1_000, cause: 'token' });
    FakeSource.made[1]?.onerror?.(new Event('error'));
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 2, cause: 'token' });
    stop();
  });

  test('a stream that was open and breaks is unreachable at once; the probe may then say it is the token', async () => {
    const { probe, answer } = heldProbe();
    const { statuses, stop } = open(probe);
    FakeSource.made[0]?.onopen?.(new Event('open'));
    FakeSource.made[0]?.onerror?.(new Event('error'));
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 1, cause: 'unreachable' });
    await answer('token');
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 1, cause: 'token' });
    stop();
  });

  test('an answer that comes after the stream opened again, or after a newer probe, is dropped', async () => {
    const { probe, answer } = heldProbe();
    const { statuses, stop } = open(probe);
    FakeSource.made[0]?.onopen?.(new Event('open'));
    FakeSource.made[0]?.onerror?.(new Event('error'));
    vi.advanceTimersByTime(1200);
    FakeSource.made[1]?.onopen?.(new Event('open'));
    await answer('token');
    expect(statuses.at(-1)).toEqual({ state: 'open', since: 1_000 });

    FakeSource.made[1]?.onerror?.(new Event('error'));
    vi.advanceTimersByTime(1200);
    FakeSource.made[2]?.onerror?.(new Event('error'));
    await answer('token'); // the first break's probe: a newer one is asked
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 2, cause: 'unreachable' });
    await answer('unreachable');
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 2, cause: 'unreachable' });
    stop();
  });

  test('a probe that throws counts as unreachable', async () => {
    const { statuses, stop } = open(() => Promise.reject(new Error('boom')));
    FakeSource.made[0]?.onerror?.(new Event('error'));
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses.at(-1)).toMatchObject({ state: 'retrying', attempt: 1, cause: 'unreachable' });
    stop();
  });
});
