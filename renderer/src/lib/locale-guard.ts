/**
 * Gives the page a `navigator.language` that `Intl` accepts, before any other module loads. The chart
 * library builds an `Intl.NumberFormat` from it as its module loads, so a tag `Intl` refuses
 * (`en-US@posix`, which Chromium reports under `LANG=C.UTF-8`) threw there and left the whole dashboard
 * blank. Imported first by `main.tsx`; it changes nothing where the tag is already usable.
 */
import { usableLocale } from './usable-locale.js';

const language = usableLocale(navigator.language);
if (language !== navigator.language) {
  Object.defineProperty(navigator, 'language', { value: language, configurable: true });
  Object.defineProperty(navigator, 'languages', {
    value: Object.freeze(navigator.languages.map(usableLocale)),
    configurable: true,
  });
}
