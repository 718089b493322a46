import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  clientToken,
  hostName,
  isAllowedHost,
  isAllowedOrigin,
  isForeignFetch,
  isJsonContentType,
  tokenMatches,
} from './guards.js';

describe('isAllowedHost', () => {
  const allowed = [
    '127.0.0.1:19280',
    'localhost',
    'LOCALHOST:80',
    'app.localhost:1',
    '[::1]:19280',
    '10.0.0.5',
  ];
  const refused = ['evil.example:19280', 'localhost.evil.example', '', 'a:b:c', '127.0.0.1:123456', '[zz]:1'];

  it('passes loopback names and IP literals, refuses any other name', () => {
    for (const host of allowed) assert.equal(isAllowedHost(host), true, host);
    for (const host of refused) assert.equal(isAllowedHost(host), false, host);
    assert.equal(isAllowedHost(undefined), false);
  });

  it('gives the same verdicts asked repeatedly and in any order (the last verdict is reused)', () => {
    for (let round = 0; round < 3; round += 1) {
      for (const host of [...allowed, ...refused].reverse()) {
        assert.equal(isAllowedHost(host), allowed.includes(host), host);
        assert.equal(isAllowedHost(host), allowed.includes(host), `${host} again`);
      }
    }
  });

  it('reads the hostname without port or brackets', () => {
    assert.equal(hostName('[::1]:80'), '::1');
    assert.equal(hostName(' Example.COM:8080 '), 'example.com');
    assert.equal(hostName('x:'), null);
  });
});

describe('isAllowedOrigin', () => {
  it('passes no Origin, our own origin and editor webviews on the chat API only', () => {
    assert.equal(isAllowedOrigin(undefined, '127.0.0.1:19280', false), true);
    assert.equal(isAllowedOrigin('http://127.0.0.1:19280', '127.0.0.1:19280', false), true);
    assert.equal(isAllowedOrigin('http://evil.example', '127.0.0.1:19280', true), false);
    assert.equal(isAllowedOrigin('vscode-webview://abc', '127.0.0.1:19280', true), true);
    assert.equal(isAllowedOrigin('vscode-webview://abc', '127.0.0.1:19280', false), false);
    assert.equal(isAllowedOrigin('not a url', '127.0.0.1:19280', true), false);
  });
});

describe('small guards', () => {
  it('compares tokens, content types and user agents', () => {
    assert.equal(tokenMatches('abc', 'abc'), true);
    assert.equal(tokenMatches('abd', 'abc'), false);
    assert.equal(tokenMatches(['abc'], 'abc'), false);
    assert.equal(isJsonContentType('application/json; charset=utf-8'), true);
    assert.equal(isJsonContentType('application/jsonx'), false);
    assert.equal(clientToken('opencode/1.2 (linux)'), 'opencode/1.2');
    assert.equal(clientToken('   '), null);
  });
});

describe('isForeignFetch', () => {
  it("takes the dashboard's own calls, a typed address and no fetch metadata; refuses other pages'", () => {
    for (const site of [undefined, 'same-origin', 'none']) assert.equal(isForeignFetch(site), false, site);
    for (const site of ['cross-site', 'same-site', 'bogus', ''])
      assert.equal(isForeignFetch(site), true, site);
  });
});
