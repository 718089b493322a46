import { expect, test } from 'vitest';
import { EMPTY_PROVIDER, entries, issuesByField, newProviderBody, parseHeaders } from './provider-form.js';

test('text areas give one entry per line (models also per comma), trimmed, blanks dropped', () => {
  expect(entries(' sk-a \n\n sk-b\n')).toEqual(['sk-a', 'sk-b']);
  expect(entries('m1, m2\nvendor/m3', true)).toEqual(['m1', 'm2', 'vendor/m3']);
});

test('headers are Name: value lines; a value may hold colons; another line is named', () => {
  expect(parseHeaders('X-Team: blue\nx-url: http://a:1\n')).toEqual({
    ok: true,
    headers: { 'X-Team': 'blue', 'x-url': 'http://a:1' },
  });
  expect(parseHeaders('X-Team blue')).toEqual({ ok: false, message: '“X-Team blue” is not “Name: value”' });
  const proto = parseHeaders('__proto__: x');
  expect(proto.ok && Object.hasOwn(proto.headers, '__proto__')).toBe(true);
});

test('the body sends what was typed, trimmed; an empty name and no headers are left out', () => {
  const fields = {
    ...EMPTY_PROVIDER,
    id: ' mine ',
    baseUrl: ' http://127.0.0.1:9/v1 ',
    apiKeys: 'sk-a\nsk-b',
    models: 'm1, m2',
  };
  expect(newProviderBody(fields)).toEqual({
    ok: true,
    body: { id: 'mine', baseUrl: 'http://127.0.0.1:9/v1', apiKeys: ['sk-a', 'sk-b'], models: ['m1', 'm2'] },
  });
  expect(newProviderBody({ ...fields, headers: 'oops' })).toEqual({
    ok: false,
    errors: { headers: '“oops” is not “Name: value”' },
  });
  expect(newProviderBody({ ...EMPTY_PROVIDER, models: 'm1', headers: 'oops' })).toEqual({
    ok: false,
    errors: {
      id: 'required: letters, digits, . _ -',
      baseUrl: 'required: the server’s http(s) URL',
      headers: '“oops” is not “Name: value”',
    },
  });
});

test('the router’s issues land on their fields, the first per field, keys and models numbered', () => {
  const errors = issuesByField(
    [
      { path: 'providers.my id', message: 'provider id: letters, digits, . _ -' },
      { path: 'providers.my id.baseUrl', message: 'must be an http(s) URL' },
      { path: 'providers.my id.apiKeys.0', message: 'an API key is printable ASCII' },
      { path: 'providers.my id.apiKeys.1', message: 'an API key is printable ASCII' },
      { path: 'providers.my id.models', message: 'list at least one model id for a custom provider' },
      { path: 'providers.my id.headers.bad name', message: 'header name is not an HTTP header name' },
      { path: 'router.failover.lastResortModel', message: 'no provider "x"' },
    ],
    'my id',
  );
  expect(errors).toEqual({
    id: 'provider id: letters, digits, . _ -',
    baseUrl: 'must be an http(s) URL',
    apiKeys: 'key 2: an API key is printable ASCII',
    models: 'list at least one model id for a custom provider',
    headers: 'bad name: header name is not an HTTP header name',
    form: 'router.failover.lastResortModel: no provider "x"',
  });
  expect(issuesByField([{ path: 'providers.a.apiKey', message: 'bad' }], 'a')).toEqual({
    apiKeys: 'key 1: bad',
  });
});
