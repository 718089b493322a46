/**
 * How an HTML page starts: the one list both gates sniff with (the response gate on a whole body, the
 * stream tracker on a stream's first bytes), so an upstream's maintenance page is the same failure either way.
 */

/** Lower-case openings of an HTML page, after blanks and a BOM. `<!doctype` alone: any doctype is no JSON. */
export const HTML_PREFIXES: readonly string[] = ['<!doctype', '<html', '<head', '<body'];

/** What the first few characters of a body (lower-cased, blanks and BOM skipped) say of an HTML page. */
export type HtmlStart = 'html' | 'maybe' | 'no';

/** `html` when `lower` opens an HTML page, `maybe` when it is the start of one of the prefixes, else `no`. */
export function htmlStart(lower: string): HtmlStart {
  if (HTML_PREFIXES.some((prefix) => lower.startsWith(prefix))) return 'html';
  return HTML_PREFIXES.some((prefix) => prefix.startsWith(lower)) ? 'maybe' : 'no';
}
