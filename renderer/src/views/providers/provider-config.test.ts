import { expect, test } from 'vitest';
import { withProviderEnabled } from './provider-config.js';

test('disabling writes enabled: false, enabling removes the flag and empty entries', () => {
  const config = { providers: { groq: { apiKey: '********' } }, activeSet: 'x' };
  const off = withProviderEnabled(config, 'groq', false);
  expect(off).toEqual({ providers: { groq: { apiKey: '********', enabled: false } }, activeSet: 'x' });
  expect(withProviderEnabled(off, 'groq', true)).toEqual(config);
  expect(withProviderEnabled(withProviderEnabled({}, 'kilo', false), 'kilo', true)).toEqual({
    providers: {},
  });
  expect(config.providers.groq).toEqual({ apiKey: '********' });
});
