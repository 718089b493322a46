import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idStem } from '../../faces/answer-collector.js';
import { shapingRules } from './shaping-rules.js';

test("a request's shaping: its tools, its hold limit, and tool-call ids minted one by one under its stem", () => {
  const tools = new Set(['Bash']);
  const rules = shapingRules(tools, { holdBufferBytes: 4096 }, 'req-1');
  assert.equal(rules.tools, tools);
  assert.equal(rules.continuing, null);
  assert.equal(rules.holdLimit, 4096);
  const stem = idStem('req-1');
  assert.deepEqual([rules.mintId(), rules.mintId()], [`call_fcm_${stem}_1`, `call_fcm_${stem}_2`]);
  const other = shapingRules(null, { holdBufferBytes: 1 }, 'req-1');
  assert.equal(other.mintId(), `call_fcm_${stem}_1`, 'each request counts its own ids');
});
