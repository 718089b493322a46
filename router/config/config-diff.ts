/** What a config save changed, as dotted paths for the `config` event and the save response. */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameLeaf(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  return Object.is(a, b);
}

function collect(before: unknown, after: unknown, path: string[], out: string[]): void {
  // A side that is missing while the other is an object diffs as `{}`, so added or removed sections
  // report their leaves rather than one coarse path.
  const left = before === undefined && isPlainObject(after) ? {} : before;
  const right = after === undefined && isPlainObject(before) ? {} : after;
  if (isPlainObject(left) && isPlainObject(right)) {
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const key of keys) collect(left[key], right[key], [...path, key], out);
    return;
  }
  if (!sameLeaf(left, right)) out.push(path.length > 0 ? path.join('.') : '(root)');
}

/**
 * Dotted paths of the leaves that differ between two configs (`router.failover.maxAttempts`). Arrays are
 * compared whole. Only paths are returned, never values, so a changed apiKey shows as its path alone.
 *
 * @example diffPaths({ activeSet: 'a' }, { activeSet: 'b' }) // ['activeSet']
 */
export function diffPaths(before: unknown, after: unknown): string[] {
  const out: string[] = [];
  collect(before, after, [], out);
  return out;
}
