/**
 * The chat face's check passes what the real chat agents send, every recorded turn of them, and names the
 * field of a body no provider takes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { chatSchema } from './chat-schema.js';
import { fieldError } from './face-validation.js';
import { fixture } from './test-kit.js';

const CHAT_FIXTURES = readdirSync(new URL('./fixtures/', import.meta.url)).filter(
  (name) => name.endsWith('.json') && fixture(name).url.startsWith('/v1/chat/completions'),
);

test('every recorded chat agent turn (OpenCode, Qwen Code, Continue) passes the check', () => {
  assert.equal(CHAT_FIXTURES.length, 6);
  for (const name of CHAT_FIXTURES) {
    const checked = chatSchema.safeParse(fixture(name).body);
    assert.ok(checked.success, `${name}: ${checked.success ? '' : fieldError(checked.error).message}`);
  }
});

test('a refusal names the field at fault and what it should be', () => {
  const refused = (body: Record<string, unknown>): string => {
    const checked = chatSchema.safeParse(body);
    assert.equal(checked.success, false, JSON.stringify(body));
    return checked.success ? '' : fieldError(checked.error).message;
  };
  const hi = [{ role: 'user', content: 'hi' }];
  assert.equal(refused({ messages: [] }), 'fcm-router: messages: must hold at least one message');
  assert.equal(refused({}), 'fcm-router: messages is required (array)');
  assert.equal(
    refused({ messages: [{ role: 'assistant', content: null, tool_calls: [{ function: {} }] }] }),
    'fcm-router: messages[0].tool_calls[0].function.name is required (string)',
  );
  assert.equal(
    refused({ messages: hi, tools: [{ type: 'function' }] }),
    'fcm-router: tools[0].function: a function tool needs its "function" (name and parameters)',
  );
  assert.equal(refused({ messages: hi, n: 1.5 }), 'fcm-router: n must be integer');
  assert.equal(
    refused({ messages: hi, top_p: 1.5 }),
    'fcm-router: top_p: too big: expected number to be <=1',
  );
  assert.equal(
    refused({ messages: hi, temperature: -1 }),
    'fcm-router: temperature: too small: expected number to be >=0',
  );
});
