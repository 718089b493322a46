import { expect, test } from 'vitest';
import { routerToken } from './token.js';

test('reads the token the daemon put into the page, and ignores the unreplaced placeholder', () => {
  const page = document.implementation.createHTMLDocument('t');
  page.head.innerHTML = '<meta name="fcm-token" content="abc123">';
  expect(routerToken(page)).toBe('abc123');
  page.head.innerHTML = '<meta name="fcm-token" content="__FCM_TOKEN__">';
  expect(routerToken(page)).toBe('');
});
