/**
 * Turns a schema failure into one clear 400 message that names the field at fault (`messages[2].content`),
 * choosing, inside a union, the alternative the input came closest to.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** The refusal of a request whose body does not fit the face's schema. */
export interface FieldError {
  ok: false;
  message: string;
  /** The field's path (`messages[0].content`), or null for the body itself. */
  param: string | null;
}

/** `['messages', 2, 'content']` → `messages[2].content`. */
export function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

const depth = (issue: Issue): number =>
  issue.code === 'invalid_union' && issue.errors.length > 0
    ? issue.path.length + Math.max(...issue.errors.map((branch) => Math.max(0, ...branch.map(depth))))
    : issue.path.length;

/** The deepest issue: inside a union, the branch that got furthest before failing. */
function deepest(issue: Issue, prefix: readonly PropertyKey[]): { issue: Issue; path: PropertyKey[] } {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { issue, path };
  let best: Issue | null = null;
  for (const branch of issue.errors) {
    for (const inner of branch) if (!best || depth(inner) > depth(best)) best = inner;
  }
  // Every branch failed at the union's own value (a string where an array or a string was wanted): say so.
  if (!best || depth(best) === 0) return { issue, path };
  return deepest(best, path);
}

function describe(issue: Issue): string {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const expected = issue.errors
      .flat()
      .filter((inner) => inner.path.length === 0 && inner.code === 'invalid_type')
      .map((inner) => (inner.code === 'invalid_type' ? inner.expected : ''));
    if (expected.length > 0) return `must be ${[...new Set(expected)].join(' or ')}`;
  }
  if (issue.code === 'invalid_type') {
    return issue.input === undefined ? `is required (${issue.expected})` : `must be ${issue.expected}`;
  }
  return issue.message;
}

/** The face's 400 for the first issue of a failed parse (of the field at `at`, or of the body). */
export function fieldError(error: z.ZodError, at: string | null = null): FieldError {
  const first = error.issues[0];
  if (!first) return { ok: false, message: `fcm-router: ${at ?? 'request body'} is invalid`, param: at };
  const { issue, path } = deepest(first, []);
  const inner = pathText(path);
  const param =
    at === null
      ? inner || null
      : inner === ''
        ? at
        : inner.startsWith('[')
          ? `${at}${inner}`
          : `${at}.${inner}`;
  const where = param ?? 'request body';
  return { ok: false, message: `fcm-router: ${where} ${describe(issue)}`, param };
}

/** A 400 for a rule the schema does not express. */
export function refuse(param: string | null, problem: string): FieldError {
  return { ok: false, message: `fcm-router: ${param ?? 'request body'} ${problem}`, param };
}
