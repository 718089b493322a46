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
  // Every branch failed at the union's own value (a number where a string or an array was wanted): say so.
  if (!best || depth(best) === 0) return { issue, path };
  return deepest(best, path);
}

const missing = (issue: Issue): boolean => issue.message.endsWith('received undefined');
const TYPE_NAMES: Readonly<Record<string, string>> = { record: 'object', int: 'integer' };
const typeName = (expected: string): string => TYPE_NAMES[expected] ?? expected;

/** What is wrong with the field, in words that follow its name. */
function describe(issue: Issue): string {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const roots = issue.errors
      .flat()
      .filter((inner) => inner.path.length === 0 && inner.code === 'invalid_type');
    const expected = [
      ...new Set(roots.map((inner) => (inner.code === 'invalid_type' ? typeName(inner.expected) : ''))),
    ];
    if (expected.length > 0) {
      // Zod leaves the input out of its issues; its message says what it received.
      return roots.every(missing)
        ? `is required (${expected.join(' or ')})`
        : `must be ${expected.join(' or ')}`;
    }
  }
  if (issue.code === 'invalid_type') {
    const expected = typeName(issue.expected);
    return missing(issue) ? `is required (${expected})` : `must be ${expected}`;
  }
  return `: ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
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
  const problem = describe(issue);
  return { ok: false, message: `fcm-router: ${where}${problem.startsWith(':') ? '' : ' '}${problem}`, param };
}

/** A 400 for a rule the schema does not express. */
export function refuse(param: string | null, problem: string): FieldError {
  return { ok: false, message: `fcm-router: ${param ?? 'request body'} ${problem}`, param };
}
