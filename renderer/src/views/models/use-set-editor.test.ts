import { expect, test } from 'vitest';
import { moveInList, moveTo, restore } from './use-set-editor.js';

test('moving a model keeps the others in order and stops at the ends', () => {
  expect(moveInList(['a', 'b', 'c'], 'c', -1)).toEqual(['a', 'c', 'b']);
  expect(moveInList(['a', 'b', 'c'], 'a', 1)).toEqual(['b', 'a', 'c']);
  expect(moveInList(['a', 'b', 'c'], 'a', -1)).toEqual(['a', 'b', 'c']);
  expect(moveInList(['a', 'b', 'c'], 'x', 1)).toEqual(['a', 'b', 'c']);
});

test('a drop puts the model at the place it was dropped on', () => {
  expect(moveTo(['a', 'b', 'c', 'd'], 'a', 2)).toEqual(['b', 'c', 'a', 'd']);
  expect(moveTo(['a', 'b', 'c', 'd'], 'd', 0)).toEqual(['d', 'a', 'b', 'c']);
  expect(moveTo(['a', 'b'], 'a', 9)).toEqual(['b', 'a']);
});

test('undo puts a removed model back at its place', () => {
  expect(restore(['a', 'c'], { key: 'b', index: 1 })).toEqual(['a', 'b', 'c']);
  expect(restore(['a'], { key: 'z', index: 5 })).toEqual(['a', 'z']);
  expect(restore(['a', 'b'], { key: 'b', index: 0 })).toEqual(['a', 'b']);
});
