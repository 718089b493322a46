import { expect, test } from 'vitest';
import { MASKED_SECRET as ROUTER_MASK } from '../../../router/api-types.js';
import { maskSecrets, MASKED_SECRET } from './mask-secrets.js';

test('masks every apiKey, however deep, and keeps everything else', () => {
  expect(
    maskSecrets({
      providers: { a: { apiKey: 'sk-live', baseUrl: 'http://x/v1' }, b: { apiKey: '' } },
      sets: { d: ['a/m'] },
    }),
  ).toEqual({
    providers: { a: { apiKey: MASKED_SECRET, baseUrl: 'http://x/v1' }, b: { apiKey: '' } },
    sets: { d: ['a/m'] },
  });
});

test('the mask is the router’s (the renderer keeps its own copy so it never bundles router code)', () => {
  expect(MASKED_SECRET).toBe(ROUTER_MASK);
});
