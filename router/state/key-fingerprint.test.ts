import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { isKeyFingerprint, keyFingerprint } from './key-fingerprint.js';

test('a fingerprint is the first 12 hex chars of the key’s SHA-256', () => {
  const key = 'sk-test-123';
  const expected = createHash('sha256').update(key).digest('hex').slice(0, 12);
  assert.equal(keyFingerprint(key), expected);
  assert.match(keyFingerprint(key), /^[0-9a-f]{12}$/);
  assert.equal(keyFingerprint(key), keyFingerprint(key), 'stable');
  assert.notEqual(keyFingerprint('sk-test-124'), expected, 'a changed key has a new fingerprint');
});

test('no key gives an empty fingerprint', () => {
  assert.equal(keyFingerprint(null), '');
});

test('isKeyFingerprint accepts only what keyFingerprint returns', () => {
  assert.equal(isKeyFingerprint(keyFingerprint('k')), true);
  assert.equal(isKeyFingerprint(''), true);
  assert.equal(isKeyFingerprint('sk-live-abcdef'), false);
  assert.equal(isKeyFingerprint('ABCDEF012345'), false);
  assert.equal(isKeyFingerprint('0123456789abc'), false);
});
