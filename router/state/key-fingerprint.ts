import { createHash } from 'node:crypto';

const FINGERPRINT_PATTERN = /^[0-9a-f]{12}$/;

/**
 * A short, stable stand-in for an API key: the first 12 hex characters of its SHA-256, or `''` without a
 * key. State files hold this, never the key, so a key change can be noticed without storing the key.
 * @example keyFingerprint('sk-abc') // '6f0b3c1d2e4a' (12 hex chars)
 */
export function keyFingerprint(apiKey: string | null): string {
  if (apiKey === null) return '';
  return createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 12);
}

/** True for a value `keyFingerprint` can return. */
export function isKeyFingerprint(value: string): boolean {
  return value === '' || FINGERPRINT_PATTERN.test(value);
}
