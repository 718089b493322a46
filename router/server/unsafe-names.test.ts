/**
 * Model ids are text from agents and configs: any character in one (CR, LF, NUL, ESC, characters outside
 * Latin-1) still gets an answer with writable headers, and never reaches a log line raw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { within } from '../test-support/deferred.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

const ODD = ['世界', 'a\r\nx-injected: 1', 'nul\0', 'esc\u001b[31mred', 'é'];

test('a configured model named outside Latin-1 is served, its header percent-encoded', async () => {
  await withScenario({ providers: { alpha: ['qwen-通义'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/qwen-通义', json('hello'));
    const reply = await within(router.chat(), 'the answer');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['x-fcm-v2-model'], 'alpha/qwen-%E9%80%9A%E4%B9%89');
    assert.equal(decodeURIComponent(String(reply.headers['x-fcm-v2-model'])), 'alpha/qwen-通义');
    assert.match(String(reply.headers['x-fcm-v2-decision']), /^alpha\/qwen-%E9%80%9A%E4%B9%89!served\|/);
  });
});

test('pinned and requested model ids with control or non-Latin-1 characters get an answer', async () => {
  await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('hello'));
    for (const odd of ODD) {
      for (const model of [`fcm:@alpha/${odd}`, `fcm:@fake/${odd}`, odd, `fcm:${odd}`]) {
        const reply = await within(router.chat({ model }), () => `an answer to ${JSON.stringify(model)}`);
        assert.ok(reply.status > 0, JSON.stringify(model));
        assert.equal(reply.headers['x-injected'], undefined);
        for (const name of ['x-fcm-v2-model', 'x-fcm-v2-decision'])
          assert.match(String(reply.headers[name]), /^[\x20-\x7e]+$/, `${name} for ${JSON.stringify(model)}`);
      }
    }
    const lines = router.logs.map((entry) => entry.line).join('\n');
    for (const control of ['\0', '\r', '\u001b'])
      assert.ok(!lines.includes(control), `no ${JSON.stringify(control)} reaches the log`);
    assert.doesNotMatch(lines, /\nx-injected/, 'no forged log line');
  });
});
