/**
 * The one place upstream text is JSON-parsed. Upstream bodies are untrusted: a parse failure is a value,
 * never an exception escaping into the engine.
 */

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** Parses `text` as JSON without throwing. */
export function parseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'invalid JSON' };
  }
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
