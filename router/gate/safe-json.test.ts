import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isRecord, parseJson } from './safe-json.js';

test('parseJson returns the value of valid JSON', () => {
  assert.deepEqual(parseJson('{"a":[1,null,"x"]}'), { ok: true, value: { a: [1, null, 'x'] } });
  assert.deepEqual(parseJson(' 42 '), { ok: true, value: 42 });
  assert.deepEqual(parseJson('null'), { ok: true, value: null });
});

test('parseJson reports invalid JSON instead of throwing', () => {
  for (const text of ['', '{', '{"a":}', 'undefined', '<html>', '\u0000', '{"a":1}{"b":2}']) {
    const result = parseJson(text);
    assert.equal(result.ok, false, text);
    if (!result.ok) assert.ok(result.error.length > 0);
  }
});

test('isRecord accepts plain objects only', () => {
  assert.equal(isRecord({}), true);
  assert.equal(isRecord({ a: 1 }), true);
  assert.equal(isRecord([]), false);
  assert.equal(isRecord(null), false);
  assert.equal(isRecord('x'), false);
  assert.equal(isRecord(1), false);
  assert.equal(isRecord(undefined), false);
});
