import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idleVerdict, type IdleFacts } from './stream-idle.js';

const facts = (commentAt: number | null, ended: boolean): IdleFacts => ({
  now: 1000,
  idleMs: 500,
  commentAt,
  ended: () => ended,
});

test('at the idle limit: silence stalls, comments after the ending end the stream, comments before it wait', () => {
  assert.deepEqual(idleVerdict(facts(null, false)), { type: 'stall' });
  assert.deepEqual(idleVerdict(facts(null, true)), { type: 'stall' }, 'silence after the ending, as ever');
  assert.deepEqual(idleVerdict(facts(900, true)), { type: 'over' });
  assert.deepEqual(idleVerdict(facts(900, false)), { type: 'wait', until: 1400 });
  assert.deepEqual(
    idleVerdict(facts(500, false)),
    { type: 'stall' },
    'the last comment is as old as the limit',
  );
});

test('the answer is asked for its ending only when comments came', () => {
  let asked = 0;
  const ended = (): boolean => {
    asked += 1;
    return true;
  };
  idleVerdict({ now: 1000, idleMs: 500, commentAt: null, ended });
  assert.equal(asked, 0);
  idleVerdict({ now: 1000, idleMs: 500, commentAt: 900, ended });
  assert.equal(asked, 1);
});
