/**
 * Every mutating `/api/*` route against every kind of bad body, and the read routes against bad query
 * parameters: each answers within a bounded time with a 4xx naming the problem, and nothing changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { ErrorResponse, StateResponse } from '../api-types.js';
import { within } from '../test-support/deferred.js';
import { httpRequest, parseReply, type HttpReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';
import type { ConfigInput } from '../config/schema.js';

const SCENARIO = {
  providers: { alpha: ['m1'], beta: ['m2'] },
  sets: { main: ['alpha/m1'], spare: ['beta/m2'] },
};

/** The mutating routes, each with the body that works, to prove the route itself is alive. */
const ROUTES: { method: 'POST' | 'PUT'; path: string; valid: unknown }[] = [
  { method: 'PUT', path: '/api/config', valid: null },
  { method: 'POST', path: '/api/models/reset', valid: { model: 'alpha/m1' } },
  { method: 'POST', path: '/api/providers/key', valid: { provider: 'beta', apiKey: 'sk-new' } },
  { method: 'POST', path: '/api/sets/active', valid: { set: 'spare' } },
  { method: 'POST', path: '/api/pause', valid: { paused: false } },
  { method: 'PUT', path: '/api/sets/main', valid: { models: ['beta/m2'] } },
  {
    method: 'POST',
    path: '/api/config/import',
    valid: {
      keys: { beta: { kind: 'keys', keys: ['sk-imported'] } },
      disabled: [],
      sets: {},
      activeSet: null,
      force: true,
      dryRun: false,
    },
  },
];

/** Bodies no route accepts, as raw text. */
const BAD_BODIES: { name: string; body: string }[] = [
  { name: 'null', body: 'null' },
  { name: 'an empty body', body: '' },
  { name: 'an array', body: '[]' },
  { name: 'an array of objects', body: '[{"paused": true}]' },
  { name: 'a number', body: '42' },
  { name: 'a string', body: '"hello"' },
  { name: 'true', body: 'true' },
  { name: 'invalid JSON', body: '{"model": ' },
  { name: 'a __proto__ key', body: '{"__proto__": {"paused": true}}' },
  { name: 'deep nesting', body: `${'['.repeat(50_000)}${']'.repeat(50_000)}` },
  {
    name: 'an object of wrong types',
    body: '{"model": 1, "provider": [], "apiKey": {}, "set": null, "paused": "yes", "models": "x", "providers": 5}',
  },
  { name: 'a huge body', body: `{"pad": "${'x'.repeat(2 * 1024 * 1024)}"}` },
];

function assertRefused(reply: HttpReply, what: string): void {
  assert.ok(
    reply.status >= 400 && reply.status < 500,
    `${what}: HTTP ${reply.status} ${reply.text.slice(0, 200)}`,
  );
  const body = parseReply<ErrorResponse>(reply);
  assert.equal(typeof body.error.message, 'string', what);
  assert.ok(body.error.message.length > 'fcm-router: '.length, `${what}: the message names the problem`);
  assert.ok(body.error.code, `${what}: a code`);
}

test('every mutating /api route answers every bad body with a 4xx naming the problem, and changes nothing', async () => {
  await withScenario(SCENARIO, async ({ router }) => {
    const configBefore = await readFile(router.router.configPath, 'utf8');
    const stateBefore = parseReply<StateResponse>(await router.get('/api/state'));
    for (const route of ROUTES) {
      for (const bad of BAD_BODIES) {
        const what = `${route.method} ${route.path} with ${bad.name}`;
        const reply = await within(
          httpRequest(`${router.url}${route.path}`, {
            method: route.method,
            headers: { 'content-type': 'application/json', 'x-fcm-token': router.token },
            body: bad.body,
          }),
          what,
        );
        assertRefused(reply, what);
        if (bad.name === 'a huge body') assert.equal(reply.status, 413, what);
        if (bad.name === 'invalid JSON')
          assert.equal(parseReply<ErrorResponse>(reply).error.code, 'invalid_json');
      }
    }
    assert.equal(
      await readFile(router.router.configPath, 'utf8'),
      configBefore,
      'the config file is unchanged',
    );
    assert.deepEqual(parseReply<StateResponse>(await router.get('/api/state')), stateBefore);

    // The routes themselves work: the refusals above were about the bodies.
    for (const route of ROUTES) {
      if (route.valid === null) continue;
      const reply = await router.api(route.method, route.path, route.valid);
      assert.equal(reply.status, 200, `${route.method} ${route.path}: ${reply.text}`);
    }
  });
});

test('a bad body field is refused in a sentence naming what was given and what is expected; param keeps the path', async () => {
  await withScenario(SCENARIO, async ({ router }) => {
    const refusal = async (path: string, body: unknown): Promise<ErrorResponse['error']> => {
      const reply = await router.api('POST', path, body);
      assert.equal(reply.status, 400, reply.text);
      return parseReply<ErrorResponse>(reply).error;
    };
    const model =
      'fcm-router: "demo-fast" is not a model: name one as provider/modelId, e.g. groq/llama-3.3-70b-versatile';
    assert.deepEqual(await refusal('/api/models/reset', { model: 'demo-fast' }), {
      message: model,
      type: 'invalid_request_error',
      code: 'invalid_request',
      param: 'model',
    });
    const listed = await refusal('/api/models/reset', { model: 'alpha/m1', extra: 1 });
    assert.deepEqual([listed.message, listed.param], ['fcm-router: unknown field "extra"', 'extra']);
    const missing = await refusal('/api/pause', {});
    assert.deepEqual([missing.message, missing.param], ['fcm-router: "paused" is missing', 'paused']);
    const typed = await refusal('/api/pause', { paused: 'yes' });
    assert.equal(typed.message, 'fcm-router: "yes" is not true or false');
  });
});

test('PUT /api/config with the body null is answered: 400 naming the body', async () => {
  await withScenario(SCENARIO, async ({ router }) => {
    const reply = await within(router.api('PUT', '/api/config', null), 'PUT /api/config null');
    assert.equal(reply.status, 400, reply.text);
    assert.match(parseReply<ErrorResponse>(reply).error.message, /must be a JSON object/);
  });
});

test('PUT /api/config with an If-Match that is no revision is answered 400 naming the header', async () => {
  await withScenario(SCENARIO, async ({ router }) => {
    const before = await readFile(router.router.configPath, 'utf8');
    const reply = await httpRequest(`${router.url}/api/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-fcm-token': router.token, 'if-match': '"a b"' },
      body: '{}',
    });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(parseReply<ErrorResponse>(reply).error.param, 'If-Match');
    assert.equal(await readFile(router.router.configPath, 'utf8'), before);
  });
});

test('names that are not own keys of the config are not found: __proto__, constructor, toString', async () => {
  await withScenario(SCENARIO, async ({ router }) => {
    for (const name of ['__proto__', 'constructor', 'toString', 'prototype']) {
      const active = await router.api('POST', '/api/sets/active', { set: name });
      assert.equal(active.status, 404, `set ${name}: ${active.text}`);
      const key = await router.api('POST', '/api/providers/key', { provider: name, apiKey: 'k' });
      assert.equal(key.status, 404, `provider ${name}: ${key.text}`);
      const reset = await router.api('POST', '/api/models/reset', { model: `${name}/m` });
      assert.equal(reset.status, 404, `model ${name}/m: ${reset.text}`);
    }
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const put = await router.api('PUT', `/api/sets/${name}`, { models: ['alpha/m1'] });
      assert.equal(put.status, 400, `PUT /api/sets/${name}: ${put.text}`);
      assert.match(parseReply<ErrorResponse>(put).error.message, /reserved/);
    }
    assert.equal(parseReply<StateResponse>(await router.get('/api/state')).activeSet, 'main');
  });
});

test('PUT /api/sets/<name> with a name that is not one is a 400 saying what a set name is', async () => {
  await withScenario(SCENARIO, async ({ router }) => {
    for (const name of ['a%20b', 'caf%C3%A9', '%E0%A4%A', 'x'.repeat(101)]) {
      const put = await router.api('PUT', `/api/sets/${name}`, { models: ['alpha/m1'] });
      assert.equal(put.status, 400, `PUT /api/sets/${name}: ${put.text}`);
      const error = parseReply<ErrorResponse>(put).error;
      assert.equal(error.param, 'name');
      assert.match(error.message, /a set name is letters, digits, \. _ -/);
    }
    const fine = await router.api('PUT', '/api/sets/new.set_1', { models: ['alpha/m1'] });
    assert.equal(fine.status, 200, fine.text);
  });
});

test('query parameters are validated: /api/history?limit= takes a whole number from 1 to 500', async () => {
  await withScenario(SCENARIO, async ({ router }) => {
    for (const limit of ['-1', '0', 'abc', '1.5', '501', '1e3', '', '%00']) {
      const reply = await router.get(`/api/history?limit=${limit}`);
      assert.equal(reply.status, 400, `limit=${limit}: ${reply.text}`);
      const error = parseReply<ErrorResponse>(reply).error;
      assert.equal(error.param, 'limit');
      assert.match(error.message, /limit/);
    }
    for (const limit of ['1', '50', '500']) {
      assert.equal((await router.get(`/api/history?limit=${limit}`)).status, 200, `limit=${limit}`);
    }
    assert.equal((await router.get('/api/history?limit=1&limit=2')).status, 400, 'a repeated parameter');
    assert.equal((await router.get('/api/history')).status, 200, 'no limit: the default');
  });
});

test('an API key that is not printable ASCII without blanks is refused, naming it, and the stored key stays', async () => {
  await withScenario(SCENARIO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    for (const apiKey of ['sk-é', 'sk-通义', 'sk-a\r\nx-evil: 1', 'sk a', 'sk-\u0000']) {
      const key = await router.api('POST', '/api/providers/key', { provider: 'alpha', apiKey });
      assert.equal(key.status, 400, `${JSON.stringify(apiKey)}: ${key.text}`);
      const error = parseReply<ErrorResponse>(key).error;
      assert.equal(error.param, 'apiKey');
      assert.match(
        error.message,
        /^fcm-router: the apiKey given is not accepted: an API key is printable ASCII without spaces/,
      );
      assert.ok(!key.text.includes(apiKey.slice(0, 4)), `the key is not quoted back: ${key.text}`);
      const config = parseReply<{ config: ConfigInput }>(await router.get('/api/config')).config;
      const put = await router.api('PUT', '/api/config', {
        ...config,
        providers: { ...config.providers, beta: { ...config.providers?.['beta'], apiKeys: [apiKey] } },
      });
      assert.equal(put.status, 400, `PUT ${JSON.stringify(apiKey)}: ${put.text}`);
      assert.match(put.text, /providers\.beta\.apiKeys\.0/);
      assert.ok(!put.text.includes(apiKey.slice(0, 4)), `the key is not quoted back: ${put.text}`);
    }
    assert.equal(
      (await router.api('POST', '/api/providers/key', { provider: 'alpha', apiKey: ' sk-ok ' })).status,
      200,
    );
    assert.equal((await router.chat()).status, 200);
    assert.equal(
      upstream.calls.at(-1)?.headers.authorization,
      'Bearer sk-ok',
      'blanks around a key are trimmed',
    );
  });
});
