/** What the router shows in place of a secret (the value of `MASKED_SECRET` in router/api-types.ts). */
export const MASKED_SECRET = '********';

/**
 * A copy of a config for display with every `apiKey` masked. The router already masks them; this keeps a
 * secret off the screen even if a server ever sent one.
 */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === 'apiKey' && typeof v === 'string' && v !== '' ? MASKED_SECRET : maskSecrets(v),
    ]),
  );
}
