/** Whether `Intl` takes `tag` as a language tag (its constructors throw a RangeError on one it refuses). */
function intlAccepts(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * A language tag `Intl` accepts, for `tag` as the browser reports it. Chromium on a Linux system with a
 * POSIX-style locale (`LANG=C.UTF-8`) reports `en-US@posix`, which `Intl` refuses; the nearest tag it takes
 * is the part before any `@` or `.`, with `_` read as `-` (`de_DE.UTF-8` is `de-DE`), else `en-US`.
 *
 * @example usableLocale('en-US@posix') // 'en-US'
 */
export function usableLocale(tag: string): string {
  if (intlAccepts(tag)) return tag;
  const base = (tag.split(/[@.]/)[0] ?? '').replaceAll('_', '-');
  return intlAccepts(base) ? base : 'en-US';
}
