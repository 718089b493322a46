import { afterEach, expect, test } from 'vitest';
import { adoptAddressToken, routerToken, signedEventsUrl } from './token.js';

afterEach(() => {
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

function pageWithMeta(content: string): Document {
  const page = document.implementation.createHTMLDocument('t');
  page.head.innerHTML = `<meta name="fcm-token" content="${content}">`;
  return page;
}

test('reads the token the daemon put into the page, and ignores the unreplaced placeholder', () => {
  expect(routerToken(pageWithMeta('abc123'))).toBe('abc123');
  expect(routerToken(pageWithMeta('__FCM_TOKEN__'))).toBe('');
});

test('a token in the address fragment is kept for the tab and leaves the address', () => {
  window.history.replaceState(null, '', '/#token=from%2Daddress');
  adoptAddressToken();
  expect(window.location.hash).toBe('');
  expect(window.location.pathname).toBe('/');
  expect(sessionStorage.getItem('fcm-router-token')).toBe('from-address');
  // A page served in remote mode holds no token: the address's stands in, for the API and the stream.
  expect(routerToken(pageWithMeta(''))).toBe('from-address');
  expect(signedEventsUrl('/api/events')).toBe('/api/events?token=from-address');
  // On loopback the page's own is newer (a restarted daemon has a new one).
  expect(routerToken(pageWithMeta('from-page'))).toBe('from-page');
});

test('a view route in the fragment is left alone', () => {
  window.history.replaceState(null, '', '/#/requests?outcome=failed');
  adoptAddressToken();
  expect(window.location.hash).toBe('#/requests?outcome=failed');
});
