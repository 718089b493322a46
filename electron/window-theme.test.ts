import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WINDOW_BACKGROUND, windowBackground } from './window-theme.js';

test('the window background follows the OS theme', () => {
  assert.equal(windowBackground(false), WINDOW_BACKGROUND.light);
  assert.equal(windowBackground(true), WINDOW_BACKGROUND.dark);
});

test("the backgrounds are the dashboard's own --bg, light and dark", () => {
  const css = readFileSync(new URL('../renderer/src/styles/base.css', import.meta.url), 'utf8');
  const values = [...css.matchAll(/--bg:\s*(#[0-9a-f]{6})/gi)].map((match) => match[1]?.toLowerCase());
  assert.deepEqual(values, [WINDOW_BACKGROUND.light, WINDOW_BACKGROUND.dark]);
});
