import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttemptView } from '../../api-types.js';
import { formatDecision, headerValue, pickRequestId } from './request-trace.js';

const attempt = (model: string, status: number | null, kind: AttemptView['kind']): AttemptView => ({
  model,
  status,
  kind,
  latencyMs: 1,
  breakerBefore: 'CLOSED',
  role: 'normal',
});

describe('formatDecision', () => {
  it('names each attempt by its status or its failure kind', () => {
    const value = formatDecision(
      'b/m2',
      'served',
      [attempt('a/m1', 200, 'empty_choices'), attempt('x/m3', 429, 'rate_limit'), attempt('b/m2', 200, null)],
      1,
    );
    assert.equal(value, 'b/m2!served|a/m1:empty_choices->x/m3:429->b/m2:200|skips=1');
  });

  it('stays ASCII and bounded for long or non-ASCII model names', () => {
    const many = Array.from({ length: 200 }, (_, i) => attempt(`prov/modèle-${i}`, 500, 'server_error'));
    const value = formatDecision(null, 'all_failed', many, 0);
    assert.ok(value.length <= 900, String(value.length));
    assert.match(value, /^none!all_failed\|\.\.\./);
    assert.match(value, /^[\x20-\x7e]+$/);
    assert.ok(value.includes('mod%C3%A8le-199:500'));
  });
});

describe('headerValue', () => {
  it('returns a printable ASCII value unchanged and percent-encodes everything else, reversibly', () => {
    assert.equal(headerValue('a/b:200'), 'a/b:200');
    assert.equal(headerValue('é→\tx'), '%C3%A9%E2%86%92%09x');
    for (const value of ['fake/世界', 'qwen-通义', 'a\r\nset-cookie: x', 'nul\0esc\u001b[31m', '100%', '😀'])
      assert.equal(decodeURIComponent(headerValue(value)), value);
    assert.equal(headerValue('lone \ud800'), 'lone %EF%BF%BD', 'a lone surrogate cannot be encoded');
    for (const value of ['a\r\nb', '世界', '\0', '\u001b'])
      assert.match(headerValue(value), /^[\x20-\x7e]*$/);
  });
});

describe('pickRequestId', () => {
  it('keeps a sane client id and replaces anything else', () => {
    const make = () => 'fresh';
    assert.equal(pickRequestId('agent-42', make), 'agent-42');
    assert.equal(pickRequestId(undefined, make), 'req-fresh');
    assert.equal(pickRequestId('has space', make), 'req-fresh');
    assert.equal(pickRequestId('x'.repeat(65), make), 'req-fresh');
  });
});
