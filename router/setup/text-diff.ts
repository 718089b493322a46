/** A short preview of a file change: changed lines `-`/`+` with two lines of context, the rest elided. */

const CONTEXT = 2;
/** Past this many line pairs the table would be large: the preview then lists the old and new lines whole. */
const MAX_PAIRS = 1_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

function linesOf(text: string | null): string[] {
  return text === null || text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

/** The line edit script from `old` to `next` by longest common subsequence (config files are small). */
function editScript(old: readonly string[], next: readonly string[]): Op[] {
  if (old.length * next.length > MAX_PAIRS)
    return [
      ...old.map((line): Op => ({ kind: '-', line })),
      ...next.map((line): Op => ({ kind: '+', line })),
    ];
  const rows = old.length + 1;
  const cols = next.length + 1;
  const common = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => common[i * cols + j] ?? 0;
  for (let i = old.length - 1; i >= 0; i -= 1)
    for (let j = next.length - 1; j >= 0; j -= 1)
      common[i * cols + j] = old[i] === next[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < old.length || j < next.length) {
    if (i < old.length && j < next.length && old[i] === next[j]) {
      ops.push({ kind: ' ', line: old[i] ?? '' });
      i += 1;
      j += 1;
    } else if (i < old.length && (j === next.length || at(i + 1, j) >= at(i, j + 1))) {
      ops.push({ kind: '-', line: old[i] ?? '' });
      i += 1;
    } else {
      ops.push({ kind: '+', line: next[j] ?? '' });
      j += 1;
    }
  }
  return ops;
}

/** `before` → `after` as a unified-diff-like block; `''` when they are equal. */
export function previewDiff(file: string, before: string | null, after: string): string {
  if (before === after) return '';
  const ops = editScript(linesOf(before), linesOf(after));
  const near = ops.map((_, index) =>
    ops.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some((op) => op.kind !== ' '),
  );
  const out = [`--- ${before === null ? '/dev/null' : file}`, `+++ ${file}`];
  ops.forEach((op, index) => {
    if (near[index]) out.push(`${op.kind} ${op.line}`);
    else if (index > 0 && near[index - 1]) out.push('  …');
  });
  return out.join('\n');
}
