import { expect, test } from 'vitest';
import { moveInList } from './use-set-editor.js';

test('moving a model keeps the others in order and stops at the ends', () => {
  expect(moveInList(['a', 'b', 'c'], 'c', -1)).toEqual(['a', 'c', 'b']);
  expect(moveInList(['a', 'b', 'c'], 'a', 1)).toEqual(['b', 'a', 'c']);
  expect(moveInList(['a', 'b', 'c'], 'a', -1)).toEqual(['a', 'b', 'c']);
  expect(moveInList(['a', 'b', 'c'], 'x', 1)).toEqual(['a', 'b', 'c']);
});
