import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offeredToolNames } from './offered-tools.js';

test('offeredToolNames: function tools and legacy functions', () => {
  const body = {
    tools: [{ type: 'function', function: { name: 'Bash' } }, { type: 'function' }, 'junk'],
    functions: [{ name: 'legacy' }],
  };
  assert.deepEqual([...offeredToolNames(body)], ['Bash', 'legacy']);
  assert.deepEqual([...offeredToolNames({})], []);
});

test('each offered tool’s parameter types come from its schema: one type, or any', () => {
  const read = {
    type: 'object',
    properties: {
      file_path: { type: 'string' },
      limit: { type: ['integer', 'null'] },
      flags: { anyOf: [{ type: 'string' }, { type: 'array' }] },
      strict: { type: 'boolean' },
    },
  };
  const offered = offeredToolNames({
    tools: [
      { type: 'function', function: { name: 'Read', parameters: read } },
      { type: 'function', function: { name: 'Ping' } },
    ],
    functions: [{ name: 'legacy', parameters: { properties: { n: { type: 'number' } } } }],
  });
  assert.deepEqual(
    [...(offered.paramTypes?.('Read') ?? [])],
    [
      ['file_path', 'string'],
      ['limit', 'integer'],
      ['flags', 'any'],
      ['strict', 'boolean'],
    ],
  );
  assert.equal(offered.paramTypes?.('Ping'), undefined, 'no schema: no types');
  assert.deepEqual([...(offered.paramTypes?.('legacy') ?? [])], [['n', 'number']]);
});
