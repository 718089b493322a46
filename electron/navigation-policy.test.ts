import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideNavigation, decideWindowOpen, isRouterUrl, isSafeExternalUrl } from './navigation-policy.js';

const ORIGIN = 'http://127.0.0.1:19280';

test('navigation stays on the router origin; look-alikes are refused', () => {
  assert.equal(decideNavigation('http://127.0.0.1:19280/', ORIGIN), 'allow');
  assert.equal(decideNavigation('http://127.0.0.1:19280/#/history?x=1', ORIGIN), 'allow');
  for (const url of [
    'http://127.0.0.1:19280.evil.example/',
    'http://127.0.0.1:19281/',
    'https://127.0.0.1:19280/',
    'http://localhost:19280/',
    'http://evil.example/?http://127.0.0.1:19280',
    'http://user:pw@127.0.0.1:19280/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
    'not a url',
  ]) {
    assert.equal(decideNavigation(url, ORIGIN), 'deny', url);
  }
  assert.equal(isRouterUrl('http://127.0.0.1:19280/', 'garbage'), false);
});

test('new windows are always denied; only https links open in the browser', () => {
  assert.deepEqual(decideWindowOpen('https://console.groq.com/keys'), {
    action: 'deny',
    openExternal: 'https://console.groq.com/keys',
  });
  for (const url of [
    'http://example.com/',
    'file:///tmp/x',
    'javascript:alert(1)',
    'https://u:p@example.com/',
    'x',
  ]) {
    assert.deepEqual(decideWindowOpen(url), { action: 'deny', openExternal: null }, url);
  }
  assert.equal(isSafeExternalUrl('HTTPS://Example.COM/a'), true);
});
