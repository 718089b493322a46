/**
 * `scope @fingerprint`: how pauses, auth blocks and budget counters are named (a model key or provider id,
 * and a key's fingerprint, never the key). Ranking looks these up for every model on every request, so each
 * name is made once and the same string returned after: no concatenation per lookup, and the map's hash of
 * the name is computed once.
 */

/** Between the scope and the fingerprint. */
export const KEY_MARK = ' @';

/** More scopes than any config holds: past it (configs edited for a long time) the cache starts over. */
const MAX_SCOPES = 10_000;
const names = new Map<string, Map<string, string>>();

/** The counter or pause name of `fingerprint` under `scope`, e.g. `groq/llama @6f0b3c1d2e4a`. */
export function scopedId(scope: string, fingerprint: string): string {
  let byKey = names.get(scope);
  if (byKey === undefined) {
    if (names.size >= MAX_SCOPES) names.clear();
    byKey = new Map();
    names.set(scope, byKey);
  }
  let name = byKey.get(fingerprint);
  if (name === undefined) {
    name = `${scope}${KEY_MARK}${fingerprint}`;
    byKey.set(fingerprint, name);
  }
  return name;
}
