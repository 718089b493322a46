/**
 * Unsaved edits carried over to a config that changed on disk meanwhile: a three-way merge of JSON values,
 * so the user's typing is never thrown away and what changed on disk is not saved over unseen.
 */

/** The merged value, and the paths both sides changed (the user's edit is kept there). */
export interface Rebased<T> {
  value: T;
  conflicts: string[];
}

type Json = unknown;

const isPlainObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep equality of JSON values (key order ignored). */
export function sameJson(a: Json, b: Json): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}

/**
 * `mine` (edited from `base`) carried over to `theirs` (what `base` became on disk): where only one side
 * changed a value, that side's; where both did, the user's, and its path is a conflict. Objects are merged
 * key by key; anything else (arrays too) is one value. An absent key is a value too: removed on one side,
 * it stays removed.
 */
export function rebaseEdits<T>(base: T, mine: T, theirs: T): Rebased<T> {
  const conflicts: string[] = [];
  const value = merge(base, mine, theirs, '', conflicts) as T;
  return { value, conflicts };
}

function merge(base: Json, mine: Json, theirs: Json, path: string, conflicts: string[]): Json {
  if (sameJson(mine, base)) return theirs;
  if (sameJson(theirs, base) || sameJson(mine, theirs)) return mine;
  if (isPlainObject(mine) && isPlainObject(theirs)) {
    const from = isPlainObject(base) ? base : {};
    const out: Record<string, Json> = {};
    // Their order first (the file's), then keys only the user added.
    for (const key of new Set([...Object.keys(theirs), ...Object.keys(mine)])) {
      const merged = merge(
        from[key],
        mine[key],
        theirs[key],
        path === '' ? key : `${path}.${key}`,
        conflicts,
      );
      if (merged !== undefined) out[key] = merged;
    }
    return out;
  }
  conflicts.push(path);
  return mine;
}
