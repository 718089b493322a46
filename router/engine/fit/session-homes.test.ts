import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SESSION_IDLE_MS, SessionHomes } from './session-homes.js';
import { TestClock } from '../../test-support/test-clock.js';

test('sessions are bounded: past the cap the longest idle goes, and an idle hour forgets one', () => {
  const clock = new TestClock();
  const homes = new SessionHomes(clock.now, 3);
  for (const id of ['s1', 's2', 's3']) {
    homes.served(id, `p/${id}`);
    clock.advance(1000);
  }
  homes.served('s1', 'p/other');
  homes.served('s4', 'p/s4');
  assert.equal(homes.size, 3);
  assert.equal(homes.home('s2'), null, 's2 was idle longest');
  assert.equal(homes.home('s1'), 'p/other');
  clock.advance(SESSION_IDLE_MS);
  assert.equal(homes.home('s4'), null);
  homes.served('s5', 'p/s5');
  assert.equal(homes.size, 1, 'idle sessions are dropped as new ones come');
});
