/**
 * Windows known before asking, on the real router over fake upstreams: the catalogue's context window and
 * free-tier TPM skip a catalogue model without sending (Cerebras' gpt-oss-120b: 65k context, 60K TPM), the
 * config's `modelFit` does the same for any model, a full minute is `quota_budget` with its resume time,
 * an asked-for output the window cannot hold is clamped, and a request no model of the set takes is
 * answered in each face's own words for a context overflow.
 */
import { test } from 'node:test';
import type { StateResponse } from '../../api-types.js';
import assert from 'node:assert/strict';
import { httpRequest, parseReply } from '../../test-support/http-client.js';
import { startHarness } from '../../test-support/router-harness.js';
import { scenarioConfig, withScenario } from '../../test-support/scenario.js';
import { json, jsonBody } from '../../test-support/upstream-behaviours.js';
import { completion } from '../../test-support/upstream-frames.js';

const CEREBRAS = 'cerebras/gpt-oss-120b';
const prompt = (words: number) => ({ messages: [{ role: 'user', content: 'word '.repeat(words) }] });

test('the catalogue’s window and TPM skip a model before sending; a request that fits goes', async () => {
  const providers = { cerebras: ['gpt-oss-120b'], big: ['m'] };
  await withScenario({ providers }, async ({ router, upstream }) => {
    upstream.always(CEREBRAS, json('from cerebras')).always('big/m', json('from big'));
    await router.chat(prompt(99_000));
    assert.deepEqual(router.lastEntry().skipped, [
      { model: CEREBRAS, reason: 'context_window', limit: 65_000 },
    ]);
    assert.equal(router.lastEntry().servedModel, 'big/m');
    await router.chat(prompt(55_000));
    assert.deepEqual(router.lastEntry().skipped, [{ model: CEREBRAS, reason: 'over_tpm', limit: 60_000 }]);
    assert.equal(upstream.callsTo(CEREBRAS).length, 0, 'nothing was sent to cerebras');
    await router.chat(prompt(100));
    assert.equal(router.lastEntry().servedModel, CEREBRAS);
  });
});

test('a request over what is left of the key’s minute is quota_budget, with the time the minute has room', async () => {
  const providers = { cerebras: ['gpt-oss-120b'], big: ['m'] };
  await withScenario({ providers }, async ({ router, upstream }) => {
    const usage = { prompt_tokens: 40_000, completion_tokens: 10, total_tokens: 40_010 };
    upstream.script(CEREBRAS, jsonBody(completion('first', { usage }))).always('big/m', json('from big'));
    await router.chat(prompt(100));
    const servedAt = router.clock.now();
    assert.equal(router.lastEntry().servedModel, CEREBRAS);
    await router.chat(prompt(25_000));
    const [skip] = router.lastEntry().skipped;
    assert.equal(skip?.reason, 'quota_budget');
    assert.ok(
      skip?.until !== undefined && skip.until >= servedAt + 59_000 && skip.until <= servedAt + 60_000,
    );
    assert.equal(upstream.callsTo(CEREBRAS).length, 1);
  });
});

test('modelFit in the config: its window skips the model; an output too long for it is clamped and noted', async () => {
  const providers = { small: ['m'], big: ['m'] };
  const providerSettings = { small: { modelFit: { m: { contextWindow: 20_000, maxOutputTokens: 8192 } } } };
  await withScenario({ providers, providerSettings }, async ({ router, upstream }) => {
    upstream.always('small/m', json('from small')).always('big/m', json('from big'));
    await router.chat(prompt(20_000));
    assert.deepEqual(router.lastEntry().skipped, [
      { model: 'small/m', reason: 'context_window', limit: 20_000 },
    ]);
    await router.chat({ ...prompt(9000), max_tokens: 32_000 });
    const entry = router.lastEntry();
    assert.equal(entry.servedModel, 'small/m');
    const sent = upstream.callsTo('small/m')[0]?.body;
    const room = 20_000 - (entry.size ?? 0) + 32_000;
    assert.equal(sent?.max_tokens, Math.min(8192, room));
    assert.match(entry.attempts[0]?.note ?? '', /^max_tokens 32000 clamped to \d+ \(what the model's window/);
  });
});

const tooLarge = {
  providers: { small: ['m'], big: ['m'] },
  providerSettings: {
    small: { modelFit: { m: { contextWindow: 4000 } } },
    big: { modelFit: { m: { contextWindow: 8000 } } },
  },
};
const headers = { 'content-type': 'application/json', 'x-api-key': 'any', authorization: 'Bearer any' };
const words = 'word '.repeat(12_000);

test('nothing fits, on chat completions: 400 context_length_exceeded naming the size and the largest window', async () => {
  await withScenario(tooLarge, async ({ router, upstream }) => {
    const reply = await router.chat(prompt(12_000));
    assert.equal(reply.status, 400);
    const { error } = parseReply<{ error: { code: string; type: string; message: string } }>(reply);
    const size = router.lastEntry().size ?? 0;
    assert.equal(error.code, 'context_length_exceeded');
    assert.equal(error.type, 'invalid_request_error');
    assert.match(
      error.message,
      new RegExp(`about ${size} tokens .* largest context window in the set is 8000 tokens`),
    );
    assert.equal(upstream.calls.length, 0);
  });
});

test('requests too large for every model are refused as such: six of them leave the set’s verdict green', async () => {
  await withScenario(tooLarge, async ({ router }) => {
    for (let i = 0; i < 6; i += 1) assert.equal((await router.chat(prompt(12_000))).status, 400);
    assert.equal(router.lastEntry().outcome, 'rejected');
    const state = parseReply<StateResponse>(await router.api('GET', '/api/state'));
    assert.equal(state.recent.failedInARow, 0);
    assert.equal(state.health.level, 'green');
  });
});

test('every model refusing a request too small to learn a window from: a 400 that says it was too large', async () => {
  const refusal = jsonBody(
    {
      error: {
        message: "This model's maximum context length is 8192 tokens. However, you requested 15321 tokens.",
      },
    },
    400,
  );
  await withScenario({ providers: { alpha: ['m1'], beta: ['m2'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', refusal);
    upstream.always('beta/m2', refusal);
    const reply = await router.chat();
    assert.equal(reply.status, 400);
    const { error } = parseReply<{ error: { code: string; message: string } }>(reply);
    const size = router.lastEntry().size ?? 0;
    assert.equal(error.code, 'context_length_exceeded');
    assert.equal(
      error.message,
      `fcm-router: every model of the set refused this request (about ${size} tokens, input and requested output) as too large; compact the conversation or ask for less output`,
    );
  });
});

test('nothing fits, on Messages: Anthropic’s “prompt is too long: N tokens > M maximum”', async () => {
  await withScenario(tooLarge, async ({ router }) => {
    const body = { model: 'fcm', max_tokens: 1000, messages: [{ role: 'user', content: words }] };
    const reply = await httpRequest(`${router.url}/v1/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    assert.equal(reply.status, 400);
    const size = router.lastEntry().size ?? 0;
    assert.deepEqual(JSON.parse(reply.text), {
      type: 'error',
      error: { type: 'invalid_request_error', message: `prompt is too long: ${size} tokens > 8000 maximum` },
    });
  });
});

test('nothing fits, on Responses: its context_length_exceeded error', async () => {
  await withScenario(tooLarge, async ({ router }) => {
    const body = { model: 'fcm', input: words, stream: true };
    const reply = await httpRequest(`${router.url}/v1/responses`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    assert.equal(reply.status, 400);
    const { error } = parseReply<{ error: { code: string; type: string } }>(reply);
    assert.equal(error.code, 'context_length_exceeded');
    assert.equal(error.type, 'invalid_request_error');
    // Refused for its size: it does not count against the set's health.
    assert.equal(router.lastEntry().outcome, 'rejected');
  });
});

test('earlier turns’ reasoning, which no model is sent, does not count toward a window (Messages and Responses)', async () => {
  const providers = { small: ['m'], big: ['m'] };
  const providerSettings = { small: { modelFit: { m: { contextWindow: 20_000 } } } };
  // 200 000 characters of thoughts: about 44 000 tokens of body, where what goes upstream is a few words.
  const thoughts = 'I should look at the tests first. '.repeat(6000);
  const messages = {
    model: 'fcm',
    max_tokens: 1000,
    messages: [
      { role: 'user', content: 'Fix the failing test.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: thoughts, signature: 'sig' },
          { type: 'text', text: 'Done.' },
        ],
      },
      { role: 'user', content: 'Thanks. Now the next one.' },
    ],
  };
  const responses = {
    model: 'fcm',
    input: [
      { role: 'user', content: 'Fix the failing test.' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: thoughts }] },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks. Now the next one.' },
    ],
  };
  await withScenario({ providers, providerSettings }, async ({ router, upstream }) => {
    upstream.always('small/m', json('from small')).always('big/m', json('from big'));
    for (const [path, body] of [
      ['/v1/messages', messages],
      ['/v1/responses', responses],
    ] as const) {
      const reply = await httpRequest(`${router.url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      assert.equal(reply.status, 200, path);
      const entry = router.lastEntry();
      assert.deepEqual([entry.servedModel, entry.skipped], ['small/m', []], path);
      assert.ok((entry.size ?? 0) < 2000, `${path}: ${entry.size} tokens`);
    }
    const counted = await httpRequest(`${router.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'fcm', messages: messages.messages }),
    });
    assert.ok(parseReply<{ input_tokens: number }>(counted).input_tokens < 1000);
  });
});

test('GET /v1/models gives each set the smallest window among its routable models, each pinned model its own', async () => {
  const providers = { cerebras: ['gpt-oss-120b'], small: ['m'], open: ['m'] };
  const providerSettings = { small: { modelFit: { m: { contextWindow: 20_000 } } } };
  const sets = { main: [CEREBRAS, 'small/m', 'open/m'], wide: [CEREBRAS, 'open/m'] };
  await withScenario({ providers, providerSettings, sets }, async ({ router }) => {
    type Listed = { id: string; context_window?: number; context_length?: number };
    const { data } = parseReply<{ data: Listed[] }>(await router.get('/v1/models'));
    const byId = new Map(data.map((model) => [model.id, model]));
    assert.equal(byId.get('fcm')?.context_window, 20_000);
    assert.equal(byId.get('fcm')?.context_length, 20_000);
    assert.equal(byId.get('fcm:main')?.context_window, 20_000);
    assert.equal(byId.get('fcm:wide')?.context_window, 65_000, 'a window nobody knows does not count');
    assert.equal(byId.get(`fcm:@${CEREBRAS}`)?.context_window, 65_000);
    assert.equal(byId.get('fcm:@open/m')?.context_window, undefined);
  });
});

test('the provider’s own list gives a window (context_length): used over the catalogue’s, kept across a restart', async () => {
  const KEPT = 'groq/llama-3.1-8b-instant';
  const providers = { groq: ['llama-3.1-8b-instant'], big: ['m'] };
  // Groq's free tier takes 6K tokens a minute on this model: lifted here so only the window speaks.
  const providerSettings = { groq: { modelLimits: { 'llama-3.1-8b-instant': { tpm: null } } } };
  await withScenario({ providers, providerSettings }, async ({ router, upstream }) => {
    upstream.always(KEPT, json('from groq')).always('big/m', json('from big'));
    upstream.listModels('groq', [{ id: 'llama-3.1-8b-instant', context_window: 9000 }]);
    await router.chat(prompt(9000));
    assert.equal(router.lastEntry().servedModel, KEPT, 'the catalogue says 131k');
    const reply = await router.api('POST', '/api/providers/discover', { provider: 'groq' });
    assert.equal(reply.status, 200, reply.text);
    await router.chat(prompt(9000));
    assert.deepEqual(router.lastEntry().skipped, [{ model: KEPT, reason: 'context_window', limit: 9000 }]);
    await router.stop();
    const again = await startHarness({
      config: scenarioConfig(upstream, { providers, providerSettings }),
      dir: router.dir,
    });
    try {
      await again.chat(prompt(9000));
      assert.deepEqual(again.lastEntry().skipped, [{ model: KEPT, reason: 'context_window', limit: 9000 }]);
    } finally {
      await again.stop();
    }
  });
});

test('when only the minute’s room is missing, the agent gets 429 with Retry-After at the moment it has room', async () => {
  await withScenario({ providers: { cerebras: ['gpt-oss-120b'] } }, async ({ router, upstream }) => {
    const usage = { prompt_tokens: 40_000, completion_tokens: 10, total_tokens: 40_010 };
    upstream.always(CEREBRAS, jsonBody(completion('first', { usage })));
    await router.chat(prompt(100));
    router.clock.advance(20_000);
    const reply = await router.chat(prompt(25_000));
    assert.equal(reply.status, 429);
    assert.equal(parseReply<{ error: { code: string } }>(reply).error.code, 'rate_limit_exceeded');
    const retry = Number(reply.headers['retry-after']);
    assert.ok(retry >= 39 && retry <= 41, `Retry-After ${String(retry)}`);
  });
});

test('a request too large for every model of the set, some of them open, is a 400 to shrink it, each model named once', async () => {
  const providers = { alpha: ['m1'], beta: ['m2'] };
  const fit = { contextWindow: 8000 };
  const providerSettings = { alpha: { modelFit: { m1: fit } }, beta: { modelFit: { m2: fit } } };
  const scenario = { providers, providerSettings, breaker: { failureThreshold: 1 } };
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.script('alpha/m1', jsonBody({ error: { message: 'down' } }, 500)).always('beta/m2', json('ok'));
    assert.equal((await router.chat()).status, 200);
    assert.equal(router.model('alpha/m1').state, 'OPEN');

    const reply = await router.chat(prompt(20_000));
    assert.equal(reply.status, 400, reply.text);
    const { error } = parseReply<{ error: { code: string } }>(reply);
    assert.equal(error.code, 'context_length_exceeded');
    const entry = router.lastEntry();
    assert.equal(entry.outcome, 'rejected');
    assert.deepEqual(
      entry.skipped.map((skip) => `${skip.model}:${skip.reason}`),
      ['alpha/m1:circuit_open', 'beta/m2:context_window'],
    );
    assert.equal(upstream.callsTo('alpha/m1').length, 1, 'the open model was not tried for it');
  });
});

test('a request too large for the models that can be tried, but not for an open one, is no 400: the open one is tried', async () => {
  const providers = { alpha: ['m1'], beta: ['m2'] };
  const providerSettings = {
    alpha: { modelFit: { m1: { contextWindow: 100_000 } } },
    beta: { modelFit: { m2: { contextWindow: 8000 } } },
  };
  const scenario = { providers, providerSettings, breaker: { failureThreshold: 1 } };
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.script('alpha/m1', jsonBody({ error: { message: 'down' } }, 500)).always('beta/m2', json('ok'));
    upstream.always('alpha/m1', json('back'));
    await router.chat();
    assert.equal(router.model('alpha/m1').state, 'OPEN');
    const reply = await router.chat(prompt(20_000));
    assert.equal(reply.status, 200, reply.text);
    assert.equal(router.lastEntry().servedModel, 'alpha/m1', 'the panic try, as the only model it fits');
  });
});

/** A small and a big model in one set, each OPEN after one failure. */
const SMALL_AND_BIG = {
  providers: { small: ['m'], big: ['m'] },
  providerSettings: {
    small: { modelFit: { m: { contextWindow: 8000 } } },
    big: { modelFit: { m: { contextWindow: 100_000 } } },
  },
  breaker: { failureThreshold: 1 },
  sets: { main: ['small/m', 'big/m'] },
};
const down = jsonBody({ error: { message: 'down' } }, 500);

test('every model OPEN, the one back soonest too small: the panic try goes to the OPEN one the request fits', async () => {
  await withScenario(SMALL_AND_BIG, async ({ router, upstream }) => {
    upstream.script('small/m', down).always('small/m', json('small back'));
    upstream.script('big/m', json('big 1'), down).always('big/m', json('big back'));
    await router.chat(); // small fails: OPEN; big serves
    router.clock.advance(10_000);
    await router.chat(); // big fails: OPEN, back 10 s after small
    assert.equal(router.model('small/m').state, 'OPEN');
    assert.equal(router.model('big/m').state, 'OPEN');

    const reply = await router.chat(prompt(20_000));
    assert.equal(reply.status, 200, reply.text);
    const entry = router.lastEntry();
    assert.equal(entry.servedModel, 'big/m');
    assert.equal(entry.attempts[0]?.role, 'panic');
    assert.deepEqual(
      entry.skipped.map((skip) => `${skip.model}:${skip.reason}`),
      ['small/m:circuit_open', 'big/m:circuit_open'],
      'the OPEN model passed over keeps its one skip',
    );
    assert.equal(upstream.callsTo('small/m').length, 1, 'the small model was not tried for it');
  });
});

test('Retry-After points at a model that can take the request, not at an OPEN one too small for it, which leaves the 429 as it is', async () => {
  await withScenario(SMALL_AND_BIG, async ({ router, upstream }) => {
    upstream.script('small/m', down).always('small/m', json('small back'));
    const limited = jsonBody({ error: { message: 'rate limited' } }, 429, { 'retry-after': '120' });
    upstream.script('big/m', json('big 1'), limited).always('big/m', json('big back'));
    await router.chat(); // small fails: OPEN for a minute; big serves
    await router.chat(); // big: 429, paused for two minutes
    assert.equal(router.model('small/m').state, 'OPEN');

    const reply = await router.chat(prompt(20_000));
    assert.equal(reply.status, 429, reply.text);
    assert.equal(router.lastEntry().attempts.length, 0, 'no panic try for a model the request does not fit');
    assert.equal(reply.headers['retry-after'], '120', 'when big, the model the request fits, is back');
    assert.match(reply.text, /or cannot take this request \(context_window\); try again in 120s/);
  });
});
