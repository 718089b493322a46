import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decidePermission } from './permission-policy.js';

const ORIGIN = 'http://127.0.0.1:19280';

test('the dashboard may only write to the clipboard; everything else is refused', () => {
  assert.equal(decidePermission('clipboard-sanitized-write', 'http://127.0.0.1:19280/', ORIGIN), true);
  assert.equal(decidePermission('clipboard-sanitized-write', 'http://127.0.0.1:19280', ORIGIN), true);
  for (const permission of [
    'clipboard-read',
    'notifications',
    'media',
    'geolocation',
    'openExternal',
    'unknown',
  ]) {
    assert.equal(decidePermission(permission, 'http://127.0.0.1:19280/', ORIGIN), false, permission);
  }
});

test('other origins, and a window with no router, get nothing', () => {
  assert.equal(decidePermission('clipboard-sanitized-write', 'https://evil.example/', ORIGIN), false);
  assert.equal(
    decidePermission('clipboard-sanitized-write', 'http://127.0.0.1:19280.evil.example/', ORIGIN),
    false,
  );
  assert.equal(decidePermission('clipboard-sanitized-write', '', ORIGIN), false);
  assert.equal(decidePermission('clipboard-sanitized-write', 'http://127.0.0.1:19280/', null), false);
});
