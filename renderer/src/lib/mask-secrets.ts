/** What the router shows in place of a secret (the value of `MASKED_SECRET` in router/api-types.ts). */
export const MASKED_SECRET = '********';

/** A key of an `apiKeys` list as shown: the router's mask (with the fingerprint) is kept, anything else masked. */
function maskListKey(v: unknown): unknown {
  return typeof v === 'string' && v !== '' && !v.startsWith(MASKED_SECRET) ? MASKED_SECRET : v;
}

/**
 * A copy of a config for display with every `apiKey` and `apiKeys` entry masked. The router already masks
 * them; this keeps a secret off the screen even if a server ever sent one.
 */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (key === 'apiKey') return [key, typeof v === 'string' && v !== '' ? MASKED_SECRET : maskSecrets(v)];
      if (key === 'apiKeys' && Array.isArray(v)) return [key, v.map(maskListKey)];
      return [key, maskSecrets(v)];
    }),
  );
}
