/**
 * Real free providers' refusals whose words change what their status means, through the real router: a
 * flagged prompt is not a refused key, an aggregator's saturated upstream is not the key's limit, a model
 * with no endpoint for tools lacks tools, a bad key in a 400 is a bad key, a broken tool call in a 400 is the
 * model's, a refused location pauses the key without blaming its models, and a wait stated to the
 * nanosecond is read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withScenario } from '../../test-support/scenario.js';
import { json, jsonBody, status } from '../../test-support/upstream-behaviours.js';

const DAY = 24 * 3_600_000;
const TOOLS = [
  { type: 'function', function: { name: 'Bash', parameters: { type: 'object', properties: {} } } },
];

const OPENROUTER_FLAGGED = {
  error: {
    code: 403,
    message:
      'openai/gpt-oss-20b:free requires moderation on OpenAI. Your input was flagged for "violence/graphic". No credits were charged.',
    metadata: {
      reasons: ['violence/graphic'],
      provider_name: 'OpenAI',
      model_slug: 'openai/gpt-oss-20b:free',
    },
  },
};

test("OpenRouter's moderation 403 fails over to the key's next model and blocks nothing", async () => {
  const options = { providers: { openrouter: ['m-a:free', 'm-b:free'] } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script('openrouter/m-a:free', status(403, { body: OPENROUTER_FLAGGED }));
    upstream.always('openrouter/m-b:free', json('from m-b'));
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-model'], 'openrouter/m-b:free');
    assert.equal(router.lastEntry().attempts[0]?.kind, 'invalid_request');
    assert.equal(router.model('openrouter/m-a:free').authBlocked, false);
    assert.equal(router.model('openrouter/m-a:free').consecutiveFailures, 0);

    router.clock.advance(DAY);
    upstream.always('openrouter/m-a:free', json('from m-a'));
    const later = await router.chat();
    assert.equal(later.headers['x-fcm-v2-model'], 'openrouter/m-a:free');
  });
});

test("a firewall's HTML 403 is a failure of the provider's, not a key blocked until it changes", async () => {
  const options = { providers: { groq: ['m1'], beta: ['m2'] } };
  const page = '<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head></html>';
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script('groq/m1', status(403, { body: page }));
    upstream.always('beta/m2', json('from beta'));
    await router.chat();
    assert.equal(router.lastEntry().attempts[0]?.kind, 'html_maintenance');
    assert.equal(router.model('groq/m1').authBlocked, false);
  });
});

const OPENROUTER_UPSTREAM_429 = {
  error: {
    message: 'Provider returned error',
    code: 429,
    metadata: {
      raw: 'm-a:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations',
      provider_name: 'Venice',
      is_byok: false,
    },
  },
};

test("OpenRouter's 429 for one model's upstream pauses that model alone, though its limits are per key", async () => {
  const options = { providers: { openrouter: ['m-a:free', 'm-b:free'] } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('openrouter/m-a:free', status(429, { body: OPENROUTER_UPSTREAM_429 }));
    upstream.always('openrouter/m-b:free', json('from m-b'));
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-model'], 'openrouter/m-b:free');
    assert.notEqual(router.model('openrouter/m-a:free').quotaPausedUntil, null);
    assert.equal(router.model('openrouter/m-b:free').quotaPausedUntil, null);
  });
});

test("OpenRouter's key limit still pauses every model on the key", async () => {
  const keyLimit = {
    error: {
      message: 'Rate limit exceeded: free-models-per-min.',
      code: 429,
      metadata: { provider_name: null },
    },
  };
  const options = { providers: { openrouter: ['m-a:free', 'm-b:free'], beta: ['m2'] } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('openrouter/m-a:free', status(429, { body: keyLimit }));
    upstream.always('openrouter/m-b:free', json('from m-b')).always('beta/m2', json('from beta'));
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-model'], 'beta/m2');
    assert.notEqual(router.model('openrouter/m-b:free').quotaPausedUntil, null);
  });
});

test('a 404 saying no endpoint takes tools teaches that the model lacks them, without harm to its health', async () => {
  const noTools = {
    error: { message: 'No endpoints found that support tool use. To learn more, visit …', code: 404 },
  };
  const options = { providers: { openrouter: ['m-a:free'], beta: ['m2'] } };
  const body = { messages: [{ role: 'user', content: 'list files' }], tools: TOOLS };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('openrouter/m-a:free', status(404, { body: noTools }));
    upstream.always('beta/m2', json('from beta'));
    for (let i = 0; i < 3; i += 1) await router.chat(body);
    assert.equal(router.model('openrouter/m-a:free').consecutiveFailures, 0);
    assert.equal(upstream.callsTo('openrouter/m-a:free').length, 1);
  });
});

const GOOGLE_BAD_KEY = [
  {
    error: {
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      status: 'INVALID_ARGUMENT',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
    },
  },
];

test("Google's 400 for a bad key blocks the key, and asks no model twice", async () => {
  const options = { providers: { googleai: ['gemini-a', 'gemini-b'] } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('googleai/gemini-a', status(400, { body: GOOGLE_BAD_KEY }));
    upstream.always('googleai/gemini-b', status(400, { body: GOOGLE_BAD_KEY }));
    const reply = await router.chat({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 32000 });
    assert.equal(reply.status, 401);
    assert.equal(router.lastEntry().attempts[0]?.kind, 'auth_error');
    assert.equal(router.model('googleai/gemini-a').authBlocked, true);
    assert.equal(
      upstream.callsTo('googleai/gemini-a').length + upstream.callsTo('googleai/gemini-b').length,
      1,
    );
  });
});

const GOOGLE_LOCATION = [
  {
    error: {
      code: 400,
      message: 'User location is not supported for the API use.',
      status: 'FAILED_PRECONDITION',
    },
  },
];

test("Google's 400 for the caller's location pauses the key for a while, blames no model, and Reset lifts it", async () => {
  const options = { providers: { googleai: ['gemini-a', 'gemini-b'], beta: ['m2'] } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('googleai/gemini-a', status(400, { body: GOOGLE_LOCATION }));
    upstream.always('beta/m2', json('from beta'));
    const now = router.clock.now();
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-model'], 'beta/m2');
    assert.equal(router.lastEntry().attempts[0]?.kind, 'region_refused');
    const gemini = router.model('googleai/gemini-a');
    assert.equal(gemini.consecutiveFailures, 0);
    assert.equal(gemini.authBlocked, false);
    // The whole key waits: its other model is not asked either.
    assert.equal((gemini.quotaPausedUntil ?? now) - now, 15 * 60_000);
    assert.equal((router.model('googleai/gemini-b').quotaPausedUntil ?? now) - now, 15 * 60_000);

    await router.chat();
    assert.equal(
      upstream.callsTo('googleai/gemini-a').length + upstream.callsTo('googleai/gemini-b').length,
      1,
    );

    // A change of network, then Reset: the key is asked again at once.
    upstream.always('googleai/gemini-a', json('from gemini'));
    assert.equal((await router.api('POST', '/api/models/reset', { model: 'googleai/gemini-a' })).status, 200);
    const after = await router.chat();
    assert.equal(after.headers['x-fcm-v2-model'], 'googleai/gemini-a');
  });
});

test('when only refused locations are left, the agent is told to change network', async () => {
  await withScenario({ providers: { googleai: ['gemini-a'] } }, async ({ router, upstream }) => {
    upstream.always('googleai/gemini-a', status(400, { body: GOOGLE_LOCATION }));
    const reply = await router.chat();
    assert.equal(reply.status, 403);
    assert.match(reply.text, /\(region_refused\); a provider does not serve this network location/);
  });
});

test("Groq's 400 tool_use_failed is the model's broken tool call: its health, and a 502 the agent retries", async () => {
  const failed = {
    error: {
      message:
        "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
      type: 'invalid_request_error',
      code: 'tool_use_failed',
      failed_generation: '<function=Bash{"command": "ls"}</function>',
    },
  };
  await withScenario({ providers: { groq: ['m1'] } }, async ({ router, upstream }) => {
    upstream.always('groq/m1', status(400, { body: failed }));
    const reply = await router.chat({ messages: [{ role: 'user', content: 'ls' }], tools: TOOLS });
    assert.equal(reply.status, 502);
    assert.equal(router.lastEntry().attempts[0]?.kind, 'invalid_tool_call');
    assert.equal(router.model('groq/m1').consecutiveFailures, 1);
  });
});

test('refusals of a too-long request in Google’s and Z.ai’s words tell the agent to compact', async () => {
  const gemini = [
    {
      error: {
        code: 400,
        message: 'The input token count (1196265) exceeds the maximum number of tokens allowed (1048576).',
        status: 'INVALID_ARGUMENT',
      },
    },
  ];
  const zai = { error: { code: '1261', message: 'Prompt exceeds max length' } };
  const options = { providers: { googleai: ['gem-a'], zai: ['glm-a'] } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('googleai/gem-a', status(400, { body: gemini }));
    upstream.always('zai/glm-a', status(400, { body: zai }));
    const reply = await router.chat({ messages: [{ role: 'user', content: 'lorem ipsum '.repeat(4000) }] });
    assert.match(reply.text, /context_length_exceeded/);
    assert.deepEqual(
      router.lastEntry().attempts.map((attempt) => attempt.kind),
      ['context_length', 'context_length'],
    );
  });
});

test('a Gemini 429 pauses the model for the wait its message states to the nanosecond', async () => {
  const body = [
    {
      error: {
        code: 429,
        message:
          'You exceeded your current quota.\n* Quota exceeded for metric: generate_content_free_tier_requests, limit: 5\nPlease retry in 29.857423712s.',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: ['x'.repeat(2400)] }],
      },
    },
  ];
  await withScenario(
    { providers: { googleai: ['gemini-2.5-pro'], beta: ['m2'] } },
    async ({ router, upstream }) => {
      upstream.script('googleai/gemini-2.5-pro', jsonBody(body, 429));
      upstream.always('beta/m2', json('ok'));
      const now = router.clock.now();
      await router.chat();
      assert.equal((router.model('googleai/gemini-2.5-pro').quotaPausedUntil ?? now) - now, 29_858);
    },
  );
});
