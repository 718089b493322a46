import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemChars, ResponseItemStore, type KeptOutput } from './responses-item-store.js';

/** A clock the test sets by hand. */
function handClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let now = start;
  return { now: () => now, advance: (ms) => (now += ms) };
}

const message = (id: string, content = 'hello'): KeptOutput => ({
  id,
  item: { type: 'message', role: 'assistant', content },
});

test('keeps an answer’s items by id and finds them; an unknown id is not held', () => {
  const store = new ResponseItemStore({ clock: handClock().now });
  const call: KeptOutput = {
    id: 'fc_1',
    item: { type: 'function_call', call_id: 'call_1', name: 'read', namespace: 'fs', arguments: '{}' },
  };
  const custom: KeptOutput = {
    id: 'ctc_1',
    item: { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
  };
  store.keep([message('msg_1'), call, custom, { id: 'rs_1', item: { type: 'reasoning' } }]);
  assert.deepEqual(store.find('msg_1'), { type: 'message', role: 'assistant', content: 'hello' });
  assert.deepEqual(store.find('fc_1'), call.item);
  assert.deepEqual(store.find('ctc_1'), custom.item);
  assert.deepEqual(store.find('rs_1'), { type: 'reasoning' });
  assert.equal(store.find('msg_2'), undefined);
  assert.equal(store.size, 4);
  assert.equal(itemChars(custom), 'ctc_1'.length + 'call_2apply_patch*** Begin Patch'.length + 32);
});

test('an id kept again replaces the older item, and the size counts it once', () => {
  const store = new ResponseItemStore({ clock: handClock().now });
  store.keep([message('msg_1', 'first')]);
  store.keep([message('msg_1', 'second')]);
  assert.deepEqual(store.find('msg_1'), { type: 'message', role: 'assistant', content: 'second' });
  assert.equal(store.size, 1);
  assert.equal(store.chars, itemChars(message('msg_1', 'second')));
});

test('over the item count, the least recently used items go first', () => {
  const store = new ResponseItemStore({ clock: handClock().now, limits: { maxItems: 3 } });
  store.keep([message('a'), message('b'), message('c')]);
  // Referring to `a` makes `b` the least recently used.
  assert.ok(store.find('a'));
  store.keep([message('d')]);
  assert.equal(store.size, 3);
  assert.equal(store.find('b'), undefined);
  for (const id of ['a', 'c', 'd']) assert.ok(store.find(id), id);
});

test('over the size in characters, the oldest go until it fits; an item bigger than the store is not kept', () => {
  const one = itemChars(message('a', 'x'.repeat(100)));
  const store = new ResponseItemStore({ clock: handClock().now, limits: { maxChars: one * 2 } });
  store.keep([message('a', 'x'.repeat(100)), message('b', 'y'.repeat(100))]);
  assert.equal(store.size, 2);
  store.keep([message('c', 'z'.repeat(100))]);
  assert.equal(store.find('a'), undefined);
  assert.ok(store.find('b'));
  assert.ok(store.find('c'));
  assert.ok(store.chars <= one * 2);
  store.keep([message('huge', 'h'.repeat(one * 3))]);
  assert.equal(store.find('huge'), undefined);
  assert.ok(store.find('b'), 'a refused giant pushes nothing out');
});

test('an item idle for maxIdleMs expires on the injected clock; a reference restarts its age', () => {
  const clock = handClock();
  const store = new ResponseItemStore({ clock: clock.now, limits: { maxIdleMs: 60_000 } });
  store.keep([message('used'), message('idle')]);
  clock.advance(59_000);
  assert.ok(store.find('used'));
  clock.advance(1_000);
  assert.equal(store.find('idle'), undefined, 'idle for 60 s: gone');
  assert.ok(store.find('used'), 'referred to 1 s ago: still held');
  clock.advance(60_000);
  assert.equal(store.find('used'), undefined);
  assert.equal(store.size, 0);
  assert.equal(store.chars, 0);
});

test('keeping prunes expired items too, so an idle store does not hold them until the next lookup', () => {
  const clock = handClock();
  const store = new ResponseItemStore({ clock: clock.now, limits: { maxIdleMs: 1_000 } });
  store.keep([message('old')]);
  clock.advance(5_000);
  store.keep([message('new')]);
  assert.equal(store.size, 1);
  assert.ok(store.find('new'));
});
