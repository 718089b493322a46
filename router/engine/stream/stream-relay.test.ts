import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failoverSchema } from '../../config/schema.js';
import { ChatEncoder } from '../../faces/chat-face.js';
import { TestClock } from '../../test-support/test-clock.js';
import { AttemptGuard, ClientGone } from '../../upstream/attempt-guard.js';
import { DeadlineWatch } from '../../upstream/deadline-watch.js';
import { Answer, type AnswerTarget } from '../answer/answer.js';
import { StreamRelay } from './stream-relay.js';
import { shapingRules } from './shaping-rules.js';
import { checkedToolNames } from '../../gate/answer-rules.js';

const IDLE_MS = 600;

/** The client's side of the wire as a record of what was written. */
function recordingTarget(): AnswerTarget & {
  written: string[];
  status: number | null;
  headersSent: boolean;
  writableEnded: boolean;
} {
  return {
    written: [],
    status: null,
    headersSent: false,
    destroyed: false,
    writableEnded: false,
    writeHead(status: number) {
      this.status = status;
      this.headersSent = true;
    },
    write(chunk: Uint8Array | string) {
      this.written.push(Buffer.from(chunk).toString('utf8'));
      return true;
    },
    end(chunk?: Uint8Array | string) {
      if (chunk !== undefined) this.written.push(Buffer.from(chunk).toString('utf8'));
      this.writableEnded = true;
    },
    once: () => undefined,
    off: () => undefined,
  };
}

/** A relay on the test's time: its guard's aborts are recorded. */
function relayOnFakeTime() {
  const clock = new TestClock(1_000_000);
  const aborts: string[] = [];
  const guard = new AttemptGuard(new ClientGone(), 60_000, new DeadlineWatch(clock));
  guard.bind({ abort: (reason) => aborts.push(reason.message) });
  const target = recordingTarget();
  const answer = new Answer(target, new ChatEncoder(), 'req-1');
  answer.trace.begin('alpha/m1', 'normal', 'CLOSED');
  const failover = failoverSchema.parse({ streamIdleTimeoutMs: IDLE_MS });
  const tools = checkedToolNames({}, failover.contentValidation);
  const shaping = shapingRules({ tools, forced: null }, failover, null);
  const overs: number[] = [];
  // As the attempt does: the stream ends as at the close, and the attempt with it.
  const over = (): void => {
    overs.push(clock.now());
    guard.dispose();
  };
  const relay = new StreamRelay({ failover, guard, answer, elapsed: () => 0, shaping, over });
  return { relay, aborts, target, guard, clock, overs };
}

const line = (text: string): Buffer => Buffer.from(text);
const roleOnly = line('data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n');
const content = line('data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n');

test('before content, keep-alive comments do not push the idle limit back: the stream stalls', () => {
  const { relay, aborts, guard, clock } = relayOnFakeTime();
  for (let elapsed = 100; elapsed < IDLE_MS; elapsed += 100) {
    clock.advance(100);
    assert.equal(relay.onChunk(line(': keepalive\n\n')), undefined);
  }
  assert.deepEqual(aborts, []);
  clock.advance(100);
  assert.deepEqual(aborts, ['stream_stall']);
  assert.equal(relay.committed, false);
  guard.dispose();
});

const emptyDelta = line('data: {"choices":[{"index":0,"delta":{"content":""}}]}\n\n');

test('before content, data lines without any are no progress either: a drip of empty deltas stalls', () => {
  const { relay, aborts, guard, clock } = relayOnFakeTime();
  relay.onChunk(roleOnly);
  for (let elapsed = 100; elapsed < IDLE_MS; elapsed += 100) {
    clock.advance(100);
    assert.equal(relay.onChunk(emptyDelta), undefined);
  }
  assert.deepEqual(aborts, []);
  clock.advance(100);
  assert.deepEqual(aborts, ['stream_stall']);
  assert.equal(relay.committed, false);
  guard.dispose();
});

test('content within the idle limit of the headers commits, whatever came before it', () => {
  const { relay, aborts, guard, clock } = relayOnFakeTime();
  relay.onChunk(roleOnly);
  clock.advance(IDLE_MS - 100);
  relay.onChunk(emptyDelta);
  relay.onChunk(content);
  assert.equal(relay.committed, true);
  assert.deepEqual(aborts, []);
  guard.dispose();
});

test('after the commit, comments keep a served stream alive, and silence still stalls it', () => {
  const { relay, aborts, target, guard, clock } = relayOnFakeTime();
  relay.onChunk(content);
  assert.equal(target.status, 200);
  for (let i = 0; i < 5; i += 1) {
    clock.advance(IDLE_MS - 100);
    relay.onChunk(line(': keepalive\n\n'));
  }
  assert.deepEqual(aborts, []);
  clock.advance(IDLE_MS);
  assert.deepEqual(aborts, ['stream_stall']);
  guard.dispose();
});

const finish = line('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n');

test('after the finish reason, comments are no progress: at the idle limit the stream is over, not stalled', () => {
  const { relay, aborts, guard, clock, overs } = relayOnFakeTime();
  const start = clock.now();
  relay.onChunk(content);
  relay.onChunk(finish);
  for (let i = 0; i < 5; i += 1) {
    clock.advance(IDLE_MS / 4);
    relay.onChunk(line(': keepalive\n\n'));
  }
  assert.deepEqual([aborts, overs.map((at) => at - start)], [[], [IDLE_MS]]);
  guard.dispose();
});

test('after the finish reason, silence ends the stream as at a close', () => {
  const { relay, aborts, guard, clock, overs } = relayOnFakeTime();
  const start = clock.now();
  relay.onChunk(content);
  relay.onChunk(finish);
  clock.advance(IDLE_MS);
  assert.deepEqual([aborts, overs.map((at) => at - start)], [[], [IDLE_MS]]);
  guard.dispose();
});

test('a chunk that goes on with a data line begun before is data, whatever its first byte', () => {
  const { relay, aborts, guard, clock, overs } = relayOnFakeTime();
  relay.onChunk(content);
  relay.onChunk(finish);
  clock.advance(IDLE_MS - 100);
  relay.onChunk(line('data: {"choices":[{"index":0,"delta":{"content":"a'));
  clock.advance(IDLE_MS - 100);
  relay.onChunk(line(':b"}}]}\n\n'));
  clock.advance(IDLE_MS - 100);
  assert.deepEqual([aborts, overs.length], [[], 0], 'each piece of the data line pushed the limit back');
  clock.advance(100);
  assert.deepEqual([aborts, overs.length], [[], 1]);
  guard.dispose();
});

test('a clean end relays the last line and ends the answer; a stream with no content fails as empty', () => {
  const served = relayOnFakeTime();
  served.relay.onChunk(content);
  served.relay.onChunk(line('data: [DONE]'));
  const outcome = served.relay.onEnd();
  assert.equal(outcome.ok, true);
  assert.equal(served.target.writableEnded, true);
  assert.match(served.target.written.join(''), /"hi"[\s\S]*data: \[DONE\]$/);
  served.guard.dispose();

  const empty = relayOnFakeTime();
  empty.relay.onChunk(roleOnly);
  const failed = empty.relay.onEnd();
  assert.equal(failed.ok, false);
  assert.equal(empty.target.status, null, 'nothing reached the client');
  empty.guard.dispose();
});
