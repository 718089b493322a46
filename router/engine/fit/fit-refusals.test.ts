/**
 * What refusals teach, on the real router over fake upstreams: a model that refuses a request for its size
 * (400 context length, Groq's 413 over the key's whole TPM), for tools or for images is learnt from the
 * first refusal and skipped for such requests from then on (also after a restart), without damage to its
 * health; a request it can take still goes there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryEntry } from '../../api-types.js';
import { attemptChain } from '../../test-support/face-scenario.js';
import { contextWindowOf, noImages, noTools, tpmOf } from '../../test-support/fit-behaviours.js';
import { startHarness } from '../../test-support/router-harness.js';
import { scenarioConfig, withScenario } from '../../test-support/scenario.js';
import { parseReply } from '../../test-support/http-client.js';
import { json, status } from '../../test-support/upstream-behaviours.js';

const SMALL = 'small/m';
const BIG = 'big/m';
const scenario = { providers: { small: ['m'], big: ['m'] } };

/** About 15,000 tokens of prompt. */
const large = { messages: [{ role: 'user', content: 'word '.repeat(12_000) }] };
const bash = { type: 'function', function: { name: 'Bash', parameters: { type: 'object', properties: {} } } };
const withTools = { tools: [bash] };
const withImage = {
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(4000)}` } },
      ],
    },
  ],
};

function assertHealthy(router: { model(key: string): { state: string; consecutiveFailures: number } }): void {
  const view = router.model(SMALL);
  assert.equal(view.state, 'CLOSED');
  assert.equal(view.consecutiveFailures, 0, 'a request that does not fit is not the model’s fault');
}

test('a context-length refusal is learnt: the same size skips the model (after a restart too), a small request still goes', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.always(SMALL, contextWindowOf(8192)).always(BIG, json('from big'));
    assert.equal((await router.chat(large)).status, 200);
    let entry = router.lastEntry();
    assert.deepEqual(attemptChain(entry.attempts), ['small/m:context_length', 'big/m:ok']);
    assertHealthy(router);

    assert.equal((await router.chat(large)).status, 200);
    entry = router.lastEntry();
    assert.deepEqual(attemptChain(entry.attempts), ['big/m:ok']);
    assert.deepEqual(entry.skipped, [{ model: SMALL, reason: 'context_window', limit: 8192 }]);
    assert.equal(upstream.callsTo(SMALL).length, 1, 'the refused size is never sent again');

    await router.chat();
    assert.equal(router.lastEntry().servedModel, SMALL, 'a small request still goes there');
    await router.stop();
    const again = await startHarness({ config: scenarioConfig(upstream, scenario), dir: router.dir });
    try {
      await again.chat(large);
      assert.deepEqual(again.lastEntry().skipped, [{ model: SMALL, reason: 'context_window', limit: 8192 }]);
      assert.equal(upstream.callsTo(SMALL).length, 2);
    } finally {
      await again.stop();
    }
  });
});

test('Groq’s 413 over the key’s tokens per minute is learnt as the whole TPM: skipped as over_tpm', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.always(SMALL, tpmOf(6000)).always(BIG, json('from big'));
    await router.chat(large);
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['small/m:over_tpm', 'big/m:ok']);
    assertHealthy(router);
    assert.equal(router.model(SMALL).quotaPausedUntil, null, 'no quota pause: the minute is not the matter');
    await router.chat(large);
    const entry: HistoryEntry = router.lastEntry();
    assert.deepEqual(entry.skipped, [{ model: SMALL, reason: 'over_tpm', limit: 6000 }]);
    assert.equal(upstream.callsTo(SMALL).length, 1);
    await router.chat();
    assert.equal(router.lastEntry().servedModel, SMALL);
  });
});

test('“tools is not supported” is learnt: requests with tools skip the model, requests without still go', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.always(SMALL, noTools()).always(BIG, json('from big'));
    await router.chat(withTools);
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['small/m:no_tool_support', 'big/m:ok']);
    assertHealthy(router);
    await router.chat(withTools);
    assert.deepEqual(router.lastEntry().skipped, [{ model: SMALL, reason: 'no_tool_support' }]);
    assert.equal(upstream.callsTo(SMALL).length, 1);
    await router.chat();
    assert.equal(router.lastEntry().servedModel, SMALL);
  });
});

test('“does not support images” is learnt: requests with images skip the model', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.always(SMALL, noImages()).always(BIG, json('from big'));
    await router.chat(withImage);
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['small/m:no_image_support', 'big/m:ok']);
    assertHealthy(router);
    await router.chat(withImage);
    assert.deepEqual(router.lastEntry().skipped, [{ model: SMALL, reason: 'no_image_support' }]);
    assert.equal(upstream.callsTo(SMALL).length, 1);
    await router.chat();
    assert.equal(router.lastEntry().servedModel, SMALL);
  });
});

test('a refusal of the output asked for: retried without it; from then on the output is clamped to the stated window', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.always(SMALL, contextWindowOf(8192)).always(BIG, json('from big'));
    const ask = { messages: [{ role: 'user', content: 'word '.repeat(2000) }], max_tokens: 32_000 };
    await router.chat(ask);
    let entry = router.lastEntry();
    assert.deepEqual(attemptChain(entry.attempts), ['small/m:context_length', 'small/m:ok']);
    assert.match(entry.attempts[1]?.note ?? '', /^max_tokens 32000 dropped/);
    await router.chat(ask);
    entry = router.lastEntry();
    assert.deepEqual(attemptChain(entry.attempts), ['small/m:ok']);
    assert.match(entry.attempts[0]?.note ?? '', /^max_tokens 32000 clamped to \d+/);
    const sent = upstream.callsTo(SMALL).at(-1)?.body?.max_tokens;
    assert.ok(typeof sent === 'number' && sent < 8192 - 2000, String(sent));
  });
});

test('a request whose input alone is over the stated window is not retried without its output length', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.always(SMALL, contextWindowOf(8192)).always(BIG, json('from big'));
    await router.chat({ ...large, max_tokens: 32_000 });
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['small/m:context_length', 'big/m:ok']);
  });
});

test('“prompt is too long” for a small request teaches nothing: the model still serves, the set’s window stays', async () => {
  const providerSettings = { small: { modelFit: { m: { contextWindow: 32_000 } } } };
  await withScenario({ ...scenario, providerSettings }, async ({ router, upstream }) => {
    const misworded = { error: { message: 'Request too large: prompt is too long for this model' } };
    upstream.script(SMALL, status(400, { body: misworded })).always(SMALL, json('from small'));
    upstream.always(BIG, json('from big'));
    assert.equal((await router.chat()).status, 200);
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['small/m:context_length', 'big/m:ok']);
    assertHealthy(router);

    assert.equal((await router.chat()).status, 200);
    assert.equal(router.lastEntry().servedModel, SMALL, 'not skipped for a size of a few tokens');
    const { data } = parseReply<{ data: { id: string; context_window?: number }[] }>(
      await router.get('/v1/models'),
    );
    assert.equal(data.find((model) => model.id === 'fcm')?.context_window, 32_000);
  });
});
