import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AttemptView, HistoryEntry } from '../../api-types.js';
import { FAILING_STREAK, recentOutcomes } from './recent-outcomes.js';

let seq = 0;
function entry(over: Partial<HistoryEntry> = {}): HistoryEntry {
  seq += 1;
  return {
    requestId: `req-${seq}`,
    at: 1_000 + seq,
    modelRequested: 'fcm',
    set: 'main',
    pinned: null,
    servedModel: null,
    outcome: 'all_failed',
    stream: false,
    wallMs: 10,
    attempts: [],
    skipped: [],
    client: null,
    clientStatus: 502,
    lastResortUsed: false,
    usage: null,
    source: 'agent',
    api: 'chat',
    ...over,
  };
}

const tried = (model: string, kind: AttemptView['kind']): AttemptView => ({
  model,
  status: null,
  kind,
  latencyMs: 5,
  breakerBefore: 'CLOSED',
  role: 'normal',
});

const offline = () => entry({ attempts: [tried('a/1', 'network_error'), tried('b/2', 'network_error')] });

const read = (newestFirst: HistoryEntry[]) => recentOutcomes({ newestFirst, activeSet: 'main' });

test('six unreachable requests in a row: the streak is full, unreachable, and both models were spared', () => {
  const recent = read(Array.from({ length: 8 }, offline));
  assert.equal(recent.window, FAILING_STREAK);
  assert.equal(recent.failedInARow, 6);
  assert.equal(recent.unreachable, true);
  assert.deepEqual(recent.causes, ['network_error']);
  assert.deepEqual(recent.spared.sort(), ['a/1', 'b/2']);
});

test('one success clears the streak: counting stops at the newest served request', () => {
  const history = [
    offline(),
    offline(),
    entry({ outcome: 'served', servedModel: 'a/1' }),
    offline(),
    offline(),
  ];
  const recent = read(history);
  assert.equal(recent.failedInARow, 2);
  assert.equal(read([entry({ outcome: 'served' }), ...history]).failedInARow, 0);
});

test('a partial answer is a failed request: it counts in the streak and clears nothing', () => {
  const cut = () =>
    entry({ outcome: 'partial', clientStatus: 200, attempts: [tried('a/1', 'stream_stall')] });
  const recent = read([cut(), offline(), cut(), offline(), cut(), offline(), entry({ outcome: 'served' })]);
  assert.equal(recent.failedInARow, 6);
  assert.deepEqual(recent.causes, ['network_error', 'stream_stall']);
});

test('probes, tests, other sets, pinned models, client aborts and refusals neither count nor clear', () => {
  const passedOver = [
    entry({ source: 'probe', outcome: 'served' }),
    entry({ source: 'test', outcome: 'served' }),
    entry({ set: 'other', outcome: 'served' }),
    entry({ set: null, pinned: 'a/1', outcome: 'served' }),
    entry({ outcome: 'client_aborted' }),
    entry({ outcome: 'rejected', clientStatus: 503 }),
  ];
  const history = [...passedOver, offline(), ...passedOver, offline()];
  assert.equal(read(history).failedInARow, 2);
});

test('causes: attempt kinds, else the skip reasons of a request without candidates, most frequent first', () => {
  const history = [
    entry({ attempts: [tried('a/1', 'rate_limit'), tried('b/2', 'server_error')] }),
    entry({ attempts: [tried('a/1', 'server_error'), tried('b/2', 'network_error')] }),
    entry({
      outcome: 'no_candidates',
      skipped: [
        { model: 'a/1', reason: 'circuit_open' },
        { model: 'b/2', reason: 'already_tried' },
      ],
    }),
    entry({ outcome: 'internal_error', clientStatus: 500 }),
  ];
  const recent = read(history);
  assert.equal(recent.failedInARow, 4);
  assert.equal(recent.causes[0], 'server_error');
  assert.deepEqual([...recent.causes].sort(), [
    'circuit_open',
    'internal_error',
    'network_error',
    'rate_limit',
    'server_error',
  ]);
  assert.equal(recent.unreachable, false);
  assert.deepEqual(recent.spared, [], 'a network error beside other failures is held against its model');
});

test('one provider unreachable is not the offline rule: its model is not spared', () => {
  const history = [entry({ attempts: [tried('a/1', 'network_error'), tried('a/2', 'network_error')] })];
  const recent = read(history);
  assert.equal(recent.unreachable, true);
  assert.deepEqual(recent.spared, []);
});

test('a local server that is not running is no sign of the machine offline, and is never spared', () => {
  const local = (model: string): AttemptView => ({ ...tried(model, 'network_error'), local: true });
  const localOnly = read([entry({ attempts: [local('ollama/1'), local('lmstudio/2')] })]);
  assert.deepEqual([localOnly.unreachable, localOnly.spared], [false, []]);
  const beside = read([entry({ attempts: [local('ollama/1'), ...offline().attempts] })]);
  assert.equal(beside.unreachable, false, 'a server on this machine was among them');
  assert.deepEqual(beside.spared.sort(), ['a/1', 'b/2'], 'the providers off this machine still are');
});

test('reading stops at the window: a long history is not walked to its end', () => {
  let pulled = 0;
  function* history(): Generator<HistoryEntry> {
    for (;;) {
      pulled += 1;
      yield offline();
    }
  }
  const recent = recentOutcomes({ newestFirst: history(), activeSet: 'main' });
  assert.equal(recent.failedInARow, 6);
  assert.ok(pulled <= 7, `read ${pulled} entries`);
});
