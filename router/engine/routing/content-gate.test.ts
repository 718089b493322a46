import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  blankContent,
  empty200,
  errorPayload,
  html,
  invalidJson,
  json,
  jsonBody,
  type Behaviour,
} from '../../test-support/upstream-behaviours.js';
import { parseReply } from '../../test-support/http-client.js';
import { withScenario } from '../../test-support/scenario.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };

interface Completion {
  choices: { message: { content: string } }[];
}

const GATE_CASES: [string, () => Behaviour][] = [
  ['html_maintenance', html],
  ['invalid_json', invalidJson],
  ['error_payload', () => errorPayload()],
  ['empty_choices', empty200],
  ['empty_content', blankContent],
];

for (const [kind, behaviour] of GATE_CASES) {
  test(`strict gate: a 200 with ${kind} fails over unseen and counts against the model`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', behaviour()).script('beta/m2', json('from beta'));
      const reply = await router.chat();
      assert.equal(reply.status, 200);
      assert.equal(parseReply<Completion>(reply).choices[0]?.message.content, 'from beta');
      assert.equal(
        reply.headers['x-fcm-v2-decision'],
        `beta/m2!served|alpha/m1:${kind}->beta/m2:200|skips=0`,
      );
      assert.equal(reply.headers['x-fcm-v2-model'], 'beta/m2');
      assert.equal(reply.headers['x-fcm-v2-attempts'], '2');
      const alpha = router.model('alpha/m1');
      assert.equal(alpha.consecutiveFailures, 1);
      assert.equal(alpha.lastFailureKind, kind);
      const entry = router.lastEntry();
      assert.deepEqual(
        entry.attempts.map((attempt) => [attempt.model, attempt.status, attempt.kind]),
        [
          ['alpha/m1', 200, kind],
          ['beta/m2', 200, null],
        ],
      );
      assert.equal(entry.outcome, 'served');
    });
  });
}

test('basic gate: whitespace-only content passes, empty choices still fail over', async () => {
  await withScenario({ ...TWO, failover: { contentValidation: 'basic' } }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', blankContent(), empty200()).always('beta/m2', json('from beta'));
    const first = await router.chat();
    assert.equal(first.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    const second = await router.chat();
    assert.equal(
      second.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:empty_choices->beta/m2:200|skips=0',
    );
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
  });
});

test('gate off: an empty 200 is served, but HTML and invalid JSON still fail over', async () => {
  await withScenario({ ...TWO, failover: { contentValidation: 'off' } }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', empty200(), html(), invalidJson()).always('beta/m2', json('from beta'));
    const served = await router.chat();
    assert.equal(served.status, 200);
    assert.equal(served.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.deepEqual(parseReply<{ choices: unknown[] }>(served).choices, []);
    const second = await router.chat();
    assert.equal(
      second.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:html_maintenance->beta/m2:200|skips=0',
    );
    const third = await router.chat();
    assert.equal(
      third.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:invalid_json->beta/m2:200|skips=0',
    );
  });
});

test('gate off: a stream asked for and answered with JSON that is no completion gets that JSON as it came', async () => {
  await withScenario({ ...TWO, failover: { contentValidation: 'off' } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', jsonBody({ id: 'x', object: 'chat.completion', note: 'no choices' }));
    const reply = await router.chat({ stream: true });
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /application\/json/);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.deepEqual(parseReply<Record<string, unknown>>(reply), {
      id: 'x',
      object: 'chat.completion',
      note: 'no choices',
    });
  });
});

test('every model failing the gate: an error with decision headers naming each kind, never 200', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', empty200()).script('beta/m2', blankContent());
    const reply = await router.chat();
    assert.equal(reply.status, 503);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'none!all_failed|alpha/m1:empty_choices->beta/m2:empty_content|skips=0',
    );
    assert.equal(reply.headers['x-fcm-v2-model'], 'beta/m2');
    assert.equal(reply.headers['x-fcm-v2-attempts'], '2');
    assert.ok(reply.headers['retry-after']);
    const body = parseReply<{ error: { message: string; type: string; code: string } }>(reply);
    assert.equal(body.error.code, 'all_models_failed');
    assert.equal(typeof body.error.message, 'string');
    assert.equal(router.lastEntry().outcome, 'all_failed');
  });
});

test('a phantom tool_calls finish reason is rewritten to stop before the client sees it', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [
            { index: 0, message: { role: 'assistant', content: 'done' }, finish_reason: 'tool_calls' },
          ],
        }),
      );
    });
    const reply = await router.chat();
    assert.equal(reply.status, 200);
    assert.equal(
      parseReply<{ choices: { finish_reason: string }[] }>(reply).choices[0]?.finish_reason,
      'stop',
    );
  });
});
