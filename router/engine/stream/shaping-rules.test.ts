import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shapingRules } from './shaping-rules.js';

test("a request's shaping: its tools, the call it forces, its hold limit, and tool-call ids minted one by one under a stem of its own", () => {
  const tools = new Set(['Bash']);
  const forced = new Set(['Bash']);
  const rules = shapingRules({ tools, forced }, { holdBufferBytes: 4096 }, null);
  assert.equal(rules.tools, tools);
  assert.equal(rules.forced, forced);
  assert.equal(rules.continuing, null);
  assert.equal(rules.holdLimit, 4096);
  const [first, second] = [rules.mintId(), rules.mintId()];
  const stem = /^call_fcm_([0-9a-f]{24})_1$/.exec(first)?.[1];
  assert.ok(stem !== undefined, first);
  assert.equal(second, `call_fcm_${stem}_2`);
  const other = shapingRules({ tools: null, forced: null }, { holdBufferBytes: 1 }, null).mintId();
  assert.match(other, /^call_fcm_[0-9a-f]{24}_1$/, 'each request counts its own ids');
  assert.notEqual(other, first, 'and no two requests share one');
});
