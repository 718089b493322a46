import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from './schema.js';

/** The issues of a config given as JSON text (so `__proto__` is an own key, as in a file or a request). */
function issuesOf(json: string): { path: string; message: string }[] {
  const result = parseConfig(JSON.parse(json));
  return result.ok ? [] : result.issues;
}

function headersIssues(headers: Record<string, string>): { path: string; message: string }[] {
  return issuesOf(JSON.stringify({ providers: { groq: { headers } } }));
}

test('provider headers the HTTP client would refuse are field errors (a name of other characters is not quoted)', () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ 'x-a': 'one\r\nx-injected: two' }, 'providers.groq.headers.x-a', /printable ASCII/],
    [{ 'x-a': 'nul\u0000' }, 'providers.groq.headers.x-a', /printable ASCII/],
    [{ 'x-a': 'café' }, 'providers.groq.headers.x-a', /printable ASCII/],
    [{ 'x header': 'v' }, 'providers.groq.headers.<invalid name #1>', /not an HTTP header name/],
    [{ 'x-é': 'v' }, 'providers.groq.headers.<invalid name #1>', /not an HTTP header name/],
    [{ '': 'v' }, 'providers.groq.headers.<invalid name #1>', /not an HTTP header name/],
    [{ 'Content-Length': '5' }, 'providers.groq.headers.Content-Length', /set by the HTTP client/],
    [{ 'proxy-authorization': 'x' }, 'providers.groq.headers.proxy-authorization', /set by the HTTP client/],
  ];
  for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade', 'te', 'trailer'])
    cases.push([{ [name]: 'x' }, `providers.groq.headers.${name}`, /set by the HTTP client/]);
  for (const [headers, path, message] of cases) {
    const issues = headersIssues(headers);
    assert.equal(issues.length, 1, `${JSON.stringify(headers)}: ${JSON.stringify(issues)}`);
    assert.equal(issues[0]?.path, path);
    assert.match(issues[0]?.message ?? '', message);
  }
  assert.deepEqual(
    issuesOf('{"providers": {"groq": {"headers": {"__proto__": "x"}}}}').map((i) => i.path),
    ['providers.groq.headers.__proto__'],
  );
  assert.deepEqual(headersIssues({ 'HTTP-Referer': 'https://example.com', 'X-Title': 'my app\tv2' }), []);
});

test('reserved ids are refused for providers and sets, with the path named', () => {
  for (const id of ['__proto__', 'constructor', 'prototype']) {
    const provider = issuesOf(`{"providers": {"${id}": {"baseUrl": "http://x/v1", "models": ["m"]}}}`);
    assert.deepEqual(
      provider.map((i) => i.path),
      [`providers.${id}`],
      id,
    );
    assert.match(provider[0]?.message ?? '', /reserved/);
    const set = issuesOf(`{"sets": {"${id}": ["groq/m"]}, "activeSet": "${id}"}`);
    assert.ok(
      set.some((i) => i.path === `sets.${id}` && /reserved/.test(i.message)),
      JSON.stringify(set),
    );
  }
  // activeSet must name an own set: an inherited member such as "toString" names none.
  const inherited = issuesOf('{"sets": {"main": ["groq/m"]}, "activeSet": "toString"}');
  assert.deepEqual(
    inherited.map((i) => i.path),
    ['activeSet'],
  );
});

test('apiKeyEnv names only variables the catalogue reads or ones made for fcm-router, never other secrets', () => {
  const check = (name: string) => issuesOf(JSON.stringify({ providers: { groq: { apiKeyEnv: name } } }));
  for (const name of [
    'GROQ_API_KEY',
    'OVH_AI_ENDPOINTS_ACCESS_TOKEN',
    'FCM_MY_PROXY_KEY',
    'FCM_GROQ_KEY_2',
    'FCM_LOCAL_TOKEN',
  ])
    assert.deepEqual(check(name), [], name);
  for (const name of [
    'HOME',
    'PATH',
    'GITHUB_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'NPM_TOKEN',
    'MY_PROXY_KEY',
    'my_key',
    'FCM_ROUTER_STATE_DIR',
    'FCM_KEY',
  ]) {
    const issues = check(name);
    assert.deepEqual(
      issues.map((i) => i.path),
      ['providers.groq.apiKeyEnv'],
      name,
    );
    assert.match(issues[0]?.message ?? '', /catalogue reads .* FCM_…_KEY or FCM_…_TOKEN/);
  }
});
