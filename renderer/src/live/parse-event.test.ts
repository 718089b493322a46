import { expect, test } from 'vitest';
import { parseRouterEvent } from './parse-event.js';

test('accepts well-formed events and drops mismatched or garbled ones', () => {
  expect(parseRouterEvent('router', '{"type":"router","paused":true}')).toEqual({
    type: 'router',
    paused: true,
  });
  expect(parseRouterEvent('breaker', '{"type":"breaker","model":{"key":"a/b"}}')).not.toBeNull();
  expect(parseRouterEvent('router', '{"type":"breaker","paused":true}')).toBeNull();
  expect(parseRouterEvent('request', '{"type":"request","entry":{}}')).toBeNull();
  expect(parseRouterEvent('router', 'not json')).toBeNull();
  expect(parseRouterEvent('hello', '{"type":"hello"}')).toBeNull();
});
