import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorResponse } from '../api-types.js';
import { json } from '../test-support/upstream-behaviours.js';
import { httpRequest, parseReply, type HttpReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';

const ONE = { providers: { alpha: ['m1'] } };
const CHAT_BODY = JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] });

function assertOpenAiError(reply: HttpReply, status: number, code: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.headers['access-control-allow-origin'], undefined, 'no CORS headers');
  assert.match(String(reply.headers['content-type']), /application\/json/);
  const body = parseReply<ErrorResponse>(reply);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.type, 'string');
  assert.equal(body.error.code, code);
}

test('bad chat requests get OpenAI-shaped errors and never reach an upstream', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const chatUrl = `${router.url}/v1/chat/completions`;
    const post = (
      body: string | Buffer,
      headers: Record<string, string> = { 'content-type': 'application/json' },
    ) => httpRequest(chatUrl, { method: 'POST', headers, body });

    const malformed = await post('{"model": "fcm", "messages": [');
    assertOpenAiError(malformed, 400, 'invalid_json');
    assert.ok(malformed.headers['x-request-id']);
    assert.equal(malformed.headers['x-fcm-v2-decision'], 'none!rejected||skips=0');
    assert.equal(malformed.headers['x-fcm-v2-attempts'], '0');
    assertOpenAiError(await post('[1, 2]'), 400, 'invalid_request');
    assertOpenAiError(await post('{"model": "fcm", "messages": []}'), 400, 'invalid_request');
    assertOpenAiError(
      await post('{"model": 42, "messages": [{"role": "user", "content": "hi"}]}'),
      400,
      'invalid_request',
    );
    assertOpenAiError(
      await post('{"stream": "yes", "messages": [{"role": "user", "content": "hi"}]}'),
      400,
      'invalid_request',
    );
    // History keeps the requested name; an absurd one is refused rather than stored.
    const longName = await post(
      JSON.stringify({ model: 'x'.repeat(301), messages: [{ role: 'user', content: 'hi' }] }),
    );
    assertOpenAiError(longName, 400, 'invalid_request');
    assert.equal(parseReply<ErrorResponse>(longName).error.param, 'model');
    assertOpenAiError(await post(CHAT_BODY, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    const wrongMethod = await httpRequest(chatUrl);
    assertOpenAiError(wrongMethod, 405, 'method_not_allowed');
    assert.equal(wrongMethod.headers['x-fcm-v2-decision'], 'none!rejected||skips=0');
    assert.ok(wrongMethod.headers['x-request-id']);

    const huge = Buffer.alloc(10 * 1024 * 1024 + 16, 0x20);
    assertOpenAiError(await post(huge), 413, 'request_too_large');
    assertOpenAiError(
      await post(huge, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }),
      413,
      'request_too_large',
    );
    assert.equal(upstream.calls.length, 0);
  });
});

test('a foreign Origin, a non-loopback Host and a mutating call without the token are refused with 403', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const chatUrl = `${router.url}/v1/chat/completions`;
    const headers = { 'content-type': 'application/json' };

    const foreign = await httpRequest(chatUrl, {
      method: 'POST',
      headers: { ...headers, origin: 'https://evil.example' },
      body: CHAT_BODY,
    });
    assertOpenAiError(foreign, 403, 'forbidden_origin');
    const rebinding = await httpRequest(chatUrl, {
      method: 'POST',
      headers: { ...headers, host: 'evil.example' },
      body: CHAT_BODY,
    });
    assertOpenAiError(rebinding, 403, 'forbidden_host');
    const stateViaEvilHost = await httpRequest(`${router.url}/api/state`, {
      headers: { host: 'evil.example:19280' },
    });
    assertOpenAiError(stateViaEvilHost, 403, 'forbidden_host');

    const noToken = await router.api('POST', '/api/models/reset', { model: 'alpha/m1' }, false);
    assertOpenAiError(noToken, 403, 'forbidden_token');
    assert.match(
      parseReply<ErrorResponse>(noToken).error.message,
      /daemon\.json/,
      'says where scripts find it',
    );
    const wrongToken = await httpRequest(`${router.url}/api/config`, {
      method: 'PUT',
      headers: { ...headers, 'x-fcm-token': 'guess' },
      body: '{}',
    });
    assertOpenAiError(wrongToken, 403, 'forbidden_token');
    assert.equal(upstream.calls.length, 0);

    const own = await httpRequest(chatUrl, {
      method: 'POST',
      headers: { ...headers, origin: router.url, host: new URL(router.url).host },
      body: CHAT_BODY,
    });
    assert.equal(own.status, 200, 'the dashboard’s own origin passes');
  });
});

test('nesting is judged on the raw bytes before parsing: an 8 MB body nested millions deep is refused unparsed', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    const post = (body: string) =>
      httpRequest(`${router.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    // 300 levels and then text no parser takes: refused for its depth, so the parser never ran.
    const deepThenBroken = await post(`{"messages": ${'['.repeat(300)} not json`);
    assertOpenAiError(deepThenBroken, 400, 'invalid_request');
    assert.match(parseReply<ErrorResponse>(deepThenBroken).error.message, /nests deeper than 256 levels/);
    const huge = await post(`{"messages":${'['.repeat(4_000_000)}${']'.repeat(4_000_000)}}`);
    assertOpenAiError(huge, 400, 'invalid_request');
    assert.match(parseReply<ErrorResponse>(huge).error.message, /nests deeper than 256 levels/);
    // Brackets in strings are text: a prompt full of them is routed.
    upstream.always('alpha/m1', json('ok'));
    const content = `${'['.repeat(1000)} {{ "quoted" \\ ]`;
    const fine = await post(JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content }] }));
    assert.equal(fine.status, 200, fine.text);
  });
});

test('a chat body no provider takes is refused naming its field, before any model of the set is asked', async () => {
  const THREE = { providers: { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] } };
  await withScenario(THREE, async ({ router, upstream }) => {
    for (const model of ['alpha/m1', 'beta/m2', 'gamma/m3']) upstream.always(model, json('ok'));
    const chat = (body: Record<string, unknown>) =>
      httpRequest(`${router.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }], ...body }),
      });
    const refused: [Record<string, unknown>, string, RegExp][] = [
      [{ messages: [{ role: 'user', content: 5 }] }, 'messages[0].content', /must be string or array/],
      [{ messages: [{ content: 'hi' }] }, 'messages[0].role', /expected one of "system"/],
      [
        { messages: [{ role: 'user', content: [{ type: 'text', text: 7 }] }] },
        'messages[0].content[0].text',
        /must be string/,
      ],
      [{ tools: [{ type: 'function' }] }, 'tools[0].function', /a function tool needs its "function"/],
      [
        { tools: [{ type: 'function', function: { name: '' } }] },
        'tools[0].function.name',
        /must not be empty/,
      ],
      [{ max_tokens: -3 }, 'max_tokens', /too small/],
      [{ temperature: 'warm' }, 'temperature', /must be number/],
      [{ stop: [1] }, 'stop[0]', /must be string/],
    ];
    for (const [body, param, words] of refused) {
      const reply = await chat(body);
      assertOpenAiError(reply, 400, 'invalid_request');
      const { error } = parseReply<ErrorResponse>(reply);
      assert.equal(error.param, param, reply.text);
      assert.match(error.message, words);
      assert.equal(reply.headers['x-fcm-v2-attempts'], '0');
    }
    assert.equal(upstream.calls.length, 0, 'no model was asked');

    // What the check does not name passes as the agent sent it: a provider's own fields, parts and tools
    // of other types, a function tool without its `type`.
    const own = {
      chat_template_kwargs: { enable_thinking: false },
      messages: [
        { role: 'user', content: [{ type: 'input_audio', input_audio: { data: '', format: 'wav' } }] },
      ],
      tools: [
        { type: 'custom', custom: { name: 'apply_patch' } },
        { function: { name: 'ls', parameters: { type: 'object' } } },
      ],
      max_tokens: null,
    };
    const served = await chat(own);
    assert.equal(served.status, 200, served.text);
    assert.deepEqual(upstream.calls[0]?.body?.chat_template_kwargs, own.chat_template_kwargs);
    assert.deepEqual(upstream.calls[0]?.body?.tools, own.tools);
  });
});
