/** A short preview of a file change: the lines around the changed block, removed `-`, added `+`. */

const CONTEXT = 2;

/** Lines of `before` → `after` as a unified-diff-like block; `''` when they are equal. */
export function previewDiff(file: string, before: string | null, after: string): string {
  if (before === after) return '';
  const old = before === null ? [] : before.replace(/\n$/, '').split('\n');
  const next = after.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) head += 1;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < next.length - head &&
    old[old.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail += 1;
  const from = Math.max(0, head - CONTEXT);
  const out = [`--- ${before === null ? '/dev/null' : file}`, `+++ ${file}`];
  out.push(...old.slice(from, head).map((line) => `  ${line}`));
  out.push(...old.slice(head, old.length - tail).map((line) => `- ${line}`));
  out.push(...next.slice(head, next.length - tail).map((line) => `+ ${line}`));
  out.push(...next.slice(next.length - tail, next.length - tail + CONTEXT).map((line) => `  ${line}`));
  return out.join('\n');
}
