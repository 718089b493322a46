/** An in-memory RouterSource whose state the test edits and whose events the test emits. Test-only. */
import type { HistoryEntry, RouterEvent, StateResponse } from '../../router/api-types.js';
import type { RouterSource } from '../router-source.js';

export interface FakeSource extends RouterSource {
  state: StateResponse;
  lastEntry: HistoryEntry | null;
  reachable: boolean;
  reads: number;
  emit(event: RouterEvent | null): void;
  listeners(): number;
}

export function fakeSource(state: StateResponse, mode: 'owned' | 'attached' = 'owned'): FakeSource {
  const listeners = new Set<(event: RouterEvent | null) => void>();
  const source: FakeSource = {
    mode,
    url: 'http://127.0.0.1:19280',
    pageUrl: 'http://127.0.0.1:19280/',
    state,
    lastEntry: null,
    reachable: true,
    reads: 0,
    async read() {
      source.reads++;
      return source.reachable ? { state: source.state, lastEntry: source.lastEntry } : null;
    },
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    async setPaused(paused) {
      source.state = { ...source.state, paused };
      source.emit({ type: 'router', paused });
    },
    async close() {
      listeners.clear();
    },
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    listeners: () => listeners.size,
  };
  return source;
}
