import { describe, expect, it } from 'vitest';
import { usableLocale } from './usable-locale.js';

describe('usableLocale', () => {
  it('keeps a tag Intl accepts as it is', () => {
    for (const tag of ['en-US', 'de', 'pt-BR', 'zh-Hant-TW', 'und']) expect(usableLocale(tag)).toBe(tag);
  });

  it('reads a POSIX-style tag as the part Intl accepts', () => {
    expect(usableLocale('en-US@posix')).toBe('en-US');
    expect(usableLocale('de_DE.UTF-8')).toBe('de-DE');
    expect(usableLocale('sr_RS@latin')).toBe('sr-RS');
  });

  it('falls back to en-US when nothing of the tag is usable', () => {
    for (const tag of ['C', 'C.UTF-8', 'C@posix', '', '@posix']) expect(usableLocale(tag)).toBe('en-US');
  });

  it('always gives a tag the number formatter takes', () => {
    for (const tag of ['en-US@posix', 'C', '', 'de_DE.UTF-8', 'fr-CA'])
      expect(() => new Intl.NumberFormat(usableLocale(tag))).not.toThrow();
  });
});
