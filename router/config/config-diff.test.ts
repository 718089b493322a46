import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffPaths } from './config-diff.js';

test('equal configs have no changes', () => {
  const config = { providers: { groq: { models: ['a', 'b'] } }, router: { failover: { maxAttempts: 4 } } };
  assert.deepEqual(diffPaths(config, structuredClone(config)), []);
  assert.deepEqual(diffPaths({}, {}), []);
});

test('changed, added and removed leaves are reported by dotted path', () => {
  const before = { activeSet: 'a', router: { failover: { maxAttempts: 4, requestTimeoutMs: 15000 } } };
  const after = {
    activeSet: 'b',
    router: { failover: { maxAttempts: 4 }, breaker: { failureThreshold: 5 } },
  };
  assert.deepEqual(diffPaths(before, after), [
    'activeSet',
    'router.failover.requestTimeoutMs',
    'router.breaker.failureThreshold',
  ]);
});

test('arrays are compared whole', () => {
  assert.deepEqual(diffPaths({ sets: { s: ['x', 'y'] } }, { sets: { s: ['y', 'x'] } }), ['sets.s']);
  assert.deepEqual(diffPaths({ sets: { s: ['x'] } }, { sets: { s: ['x'] } }), []);
});

test('a new or removed provider lists its leaves; keys appear as paths, never values', () => {
  const changed = diffPaths(
    { providers: { groq: { apiKey: 'old-secret' } } },
    {
      providers: {
        groq: { apiKey: 'new-secret' },
        myhost: { baseUrl: 'https://x.example/v1', enabled: true },
      },
    },
  );
  assert.deepEqual(changed, [
    'providers.groq.apiKey',
    'providers.myhost.baseUrl',
    'providers.myhost.enabled',
  ]);
  assert.ok(!changed.join(' ').includes('secret'));
  assert.deepEqual(diffPaths({ providers: { groq: { apiKey: 'k' } } }, { providers: {} }), [
    'providers.groq.apiKey',
  ]);
});

test('a type change at a node is reported at that node', () => {
  assert.deepEqual(diffPaths({ router: { failover: 1 } }, { router: { failover: { maxAttempts: 1 } } }), [
    'router.failover',
  ]);
  assert.deepEqual(diffPaths(1, 2), ['(root)']);
  assert.deepEqual(diffPaths({ a: null }, { a: {} }), ['a']);
});
