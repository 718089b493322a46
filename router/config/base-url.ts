/**
 * What a provider's `baseUrl` may be: an http(s) address the router appends `/chat/completions` and
 * `/models` to. A query or a fragment would swallow that path, and a user name or password is a secret in a
 * place the router shows and logs as an address. Pure.
 */

/** Where a key goes instead of the address. */
const KEY_PLACE =
  'a key belongs in apiKey (sent as a bearer token), or in headers for a provider that wants it under another header';

/**
 * Why `value` cannot be a provider's base URL, or null when it can. The words never quote the URL: what is
 * wrong in it may be a key.
 */
export function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  if (url.username !== '' || url.password !== '')
    return `must not hold a user name or password (user:secret@): ${KEY_PLACE}`;
  // An empty `?` or `#` is no query to the URL parser, but would still cut the path the router appends.
  if (value.includes('?'))
    return `must not hold a query (?…): the router appends /chat/completions and /models to it; ${KEY_PLACE}`;
  if (value.includes('#'))
    return 'must not hold a fragment (#…): the router appends /chat/completions and /models to it';
  return null;
}
