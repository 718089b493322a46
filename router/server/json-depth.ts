/**
 * The deepest nesting a request body may have. Agents' bodies nest a few dozen levels (tool schemas);
 * thousands of levels only make `JSON.stringify` throw later, on the way upstream.
 */
export const MAX_JSON_DEPTH = 256;

/** True when `value` nests objects or arrays more than `max` levels deep. No recursion: any depth is safe. */
export function exceedsJsonDepth(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const current = item.value;
    if (typeof current !== 'object' || current === null) continue;
    const depth = item.depth + 1;
    if (depth > max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth });
    }
  }
  return false;
}
