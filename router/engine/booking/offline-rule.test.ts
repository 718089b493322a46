import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FailureKind } from '../../api-types.js';
import { isOfflineFailure } from './offline-rule.js';

const off = (model: string, kind: FailureKind | null = 'network_error') => ({ model, kind });
const local = (model: string, kind: FailureKind | null = 'network_error') => ({
  model,
  kind,
  local: true as const,
});

test('the offline rule: network errors on every attempt off this machine, across two providers or more', () => {
  const rows: Array<[string, Parameters<typeof isOfflineFailure>[0], boolean]> = [
    ['two providers unreachable', [off('a/1'), off('b/2')], true],
    ['one provider, two models', [off('a/1'), off('a/2')], false],
    ['another failure beside them', [off('a/1'), off('b/2'), off('c/3', 'server_error')], false],
    ['none tried', [], false],
    ['two local servers not running', [local('ollama/1'), local('lmstudio/2')], false],
    ['one provider off this machine beside a local server', [local('ollama/1'), off('a/1')], false],
    ['two off this machine beside a local server', [local('ollama/1'), off('a/1'), off('b/2')], true],
    ['a local server’s other failure', [local('ollama/1', 'server_error'), off('a/1'), off('b/2')], true],
  ];
  for (const [what, attempts, offline] of rows)
    assert.equal(isOfflineFailure(attempts, false), offline, what);
  assert.equal(isOfflineFailure([off('a/1'), off('b/2')], true), false, 'a request served');
});
