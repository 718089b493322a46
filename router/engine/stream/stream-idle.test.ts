import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idleVerdict, type IdleFacts } from './stream-idle.js';

const facts = (commentAt: number | null, ended: boolean): IdleFacts => ({
  now: 1000,
  idleMs: 500,
  commentAt,
  ended: () => ended,
});

test('at the idle limit: after the ending the stream is over; before it silence stalls and comments wait', () => {
  assert.deepEqual(idleVerdict(facts(null, false)), { type: 'stall' });
  assert.deepEqual(idleVerdict(facts(null, true)), { type: 'over' }, 'silence after the ending');
  assert.deepEqual(idleVerdict(facts(900, true)), { type: 'over' });
  assert.deepEqual(idleVerdict(facts(900, false)), { type: 'wait', until: 1400 });
  assert.deepEqual(
    idleVerdict(facts(500, false)),
    { type: 'stall' },
    'the last comment is as old as the limit',
  );
});
