import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, ioTurns, within } from '../test-support/deferred.js';
import { hang, json, sse } from '../test-support/upstream-behaviours.js';
import { contentFrame, roleFrame, usageFrame } from '../test-support/upstream-frames.js';
import { readText, sseData, sseText } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };
/** Router timeouts far beyond the test's own waits, so only the client can end the request. */
const PATIENT = {
  ...TWO,
  failover: { requestTimeoutMs: 60_000, streamIdleTimeoutMs: 60_000, totalBudgetMs: 120_000 },
};

/** An agent-sized body: content-part arrays, a developer message, many tools, stream options, odd fields. */
function agentBody(): Record<string, unknown> {
  const tools = Array.from({ length: 40 }, (_, i) => ({
    type: 'function',
    function: {
      name: `tool_${i}`,
      description: `Tool number ${i} — “quoted” ünïcödé \u2028 text`,
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, n: { type: 'integer' } },
        required: ['path'],
      },
    },
  }));
  return {
    model: 'fcm',
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0.2,
    max_tokens: 1024,
    tool_choice: 'auto',
    parallel_tool_calls: true,
    tools,
    messages: [
      { role: 'developer', content: 'You are a careful coding agent.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look at this:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'tool_1', arguments: '{"path":"a.ts"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'file contents' },
    ],
    metadata: { session: 'abc', nested: { deep: [1, 2, { x: null }] } },
  };
}

test('the provider key goes as Bearer; client credentials never; only `model` changes in the body', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sse([roleFrame(), contentFrame('ok'), usageFrame(11, 2)]));
    const body = agentBody();
    const reply = await router.chat(body, {
      headers: {
        authorization: 'Bearer sk-client-should-not-leak',
        cookie: 'session=client-cookie',
        'x-api-key': 'client-x-api-key',
        'user-agent': 'opencode/1.18.33 ai-sdk/5',
      },
    });
    assert.equal(reply.status, 200);
    const call = upstream.callsTo('alpha/m1')[0];
    assert.ok(call);
    assert.equal(call.path, '/alpha/chat/completions');
    assert.equal(call.headers.authorization, 'Bearer sk-test-alpha');
    assert.equal(call.headers.cookie, undefined);
    assert.equal(call.headers['x-api-key'], undefined);
    assert.ok(!call.rawBody.includes('sk-client-should-not-leak'));
    assert.deepEqual(call.body, { ...body, model: 'm1' });
  });
});

test('a usage-only chunk after content is normal, and its usage is recorded', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sse([roleFrame(), contentFrame('Hi'), usageFrame(11, 2)]));
    const reply = await router.chat({ stream: true, stream_options: { include_usage: true } });
    const frames = sseData(reply.text);
    assert.equal(frames.at(-1), '[DONE]');
    assert.deepEqual((frames.at(-2) as { choices: unknown[] }).choices, []);
    assert.equal(sseText(reply.text), 'Hi');
    const entry = router.lastEntry();
    assert.equal(entry.outcome, 'served');
    assert.deepEqual(entry.usage, { promptTokens: 11, completionTokens: 2 });
  });
});

test('a client that disconnects mid-stream aborts the upstream at once, with no health damage', async () => {
  await withScenario(PATIENT, async ({ router, upstream }) => {
    const never = deferred();
    upstream.script(
      'alpha/m1',
      sse([roleFrame(), contentFrame('first words'), never.promise, contentFrame('never')]),
    );
    const open = router.openChat({ stream: true });
    const res = await open.response;
    await within(new Promise((resolve) => res.once('data', resolve)), 'the first streamed bytes');
    const finished = router.nextEntry();
    open.request.destroy();
    const call = upstream.callsTo('alpha/m1')[0];
    assert.ok(call);
    // The router's clock never moves in this test: no deadline can have cut the call, only the client.
    await within(call.closed, 'the upstream socket to close');
    assert.equal(call.closedEarly, true, 'the fake upstream saw its socket close');
    const entry = await finished;
    assert.equal(entry.outcome, 'client_aborted');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

test('a client that disconnects while the upstream is still silent aborts it too', async () => {
  await withScenario(PATIENT, async ({ router, upstream }) => {
    upstream.script('alpha/m1', hang());
    const open = router.openChat();
    const call = await upstream.nextCall('alpha/m1');
    const finished = router.nextEntry();
    open.request.destroy();
    await within(call.closed, 'the upstream socket to close');
    assert.equal(call.closedEarly, true);
    assert.equal((await finished).outcome, 'client_aborted');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    assert.equal(upstream.callsTo('beta/m2').length, 0, 'no failover for a client that left');
  });
});

test('a non-streamed answer reaches the client byte for byte', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', json('exact bytes ✓'));
    const reply = await router.chat();
    const content = (JSON.parse(reply.text) as { choices: { message: { content: string } }[] }).choices[0]
      ?.message.content;
    assert.equal(content, 'exact bytes ✓');
    assert.equal(router.lastEntry().usage?.completionTokens, 3);
  });
});

test('the streamed answer of a committed model arrives in order even when the client reads slowly', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const pieces = Array.from({ length: 200 }, (_, i) => `${'y'.repeat(2000)}${i};`);
    upstream.script('alpha/m1', sse([roleFrame(), ...pieces.map(contentFrame)]));
    const open = router.openChat({ stream: true });
    const res = await open.response;
    res.pause();
    // The event loop goes round while nothing is read: the router's writes back up and it waits for drain.
    await ioTurns(50);
    res.resume();
    const text = await readText(res);
    assert.equal(sseText(text), pieces.join(''));
    assert.equal(router.lastEntry().outcome, 'served');
  });
});
