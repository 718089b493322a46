import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { KeptNotifications } from './kept-notifications.js';

test('a shown notification is kept until it is clicked', () => {
  const kept = new KeptNotifications<EventEmitter>();
  const shown = new EventEmitter();
  kept.keep(shown);
  assert.equal(kept.has(shown), true);
  shown.emit('click');
  assert.equal(kept.has(shown), false);
});

test('closing or a failure to show lets it go too', () => {
  const kept = new KeptNotifications<EventEmitter>();
  const closed = new EventEmitter();
  const failed = new EventEmitter();
  kept.keep(closed);
  kept.keep(failed);
  closed.emit('close');
  failed.emit('failed');
  assert.equal(kept.size, 0);
});

test('past the cap the oldest notification is let go first', () => {
  const kept = new KeptNotifications<EventEmitter>(2);
  const [a, b, c] = [new EventEmitter(), new EventEmitter(), new EventEmitter()];
  kept.keep(a);
  kept.keep(b);
  kept.keep(c);
  assert.deepEqual([kept.has(a), kept.has(b), kept.has(c)], [false, true, true]);
});
