import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttemptView } from '../api-types.js';
import { asciiHeader, formatDecision, pickRequestId } from './decision-header.js';

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
    assert.ok(value.includes('mod?le-199:500'));
  });
});

describe('asciiHeader', () => {
  it('returns an ASCII value unchanged and replaces every other character', () => {
    assert.equal(asciiHeader('a/b:200'), 'a/b:200');
    assert.equal(asciiHeader('é→\tx'), '???x');
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
