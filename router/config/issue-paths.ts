/**
 * The dotted JSON paths of config issues, which never quote a name unless it is safe to show. A hand edit
 * may paste a whole header line (`Authorization: Bearer sk-…`) where a name goes, and config issues reach
 * the log, the `config-file` event and `GET /api/config`: such a name is written `<invalid name #1>`
 * instead (one number per name), while good names (provider ids, set names, header names, model ids, the
 * config's own keys) stay readable. Pure.
 */
import type { z } from 'zod/v3';

/**
 * The `params` a record key's own check puts on its issue when the name is not made of the characters its
 * kind allows: that name is never shown, whatever it reads.
 */
export const UNSHOWN_NAME: Readonly<{ unshownName: true }> = { unshownName: true };

/** A name shown as typed: printable ASCII without blanks, no longer than a model id. */
const SHOWN_NAME = /^[\x21-\x7e]{1,300}$/;
/** An unknown key shown as typed: a plain identifier, as the config's own keys are. */
const IDENTIFIER = /^[A-Za-z_$][\w$-]{0,99}$/;

type Steps = readonly (string | number)[];

/** One issue at its path, with whether the path's last name must not be shown whatever it reads. */
export interface IssueAt {
  path: Steps;
  message: string;
  unshownLast: boolean;
}

/** Where one zod issue is: an unknown-keys issue is at each of its keys. */
export function issuePlaces(issue: z.ZodIssue): IssueAt[] {
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((key) => ({
      path: [...issue.path, key],
      message: 'unknown key',
      unshownLast: !IDENTIFIER.test(key),
    }));
  const unshownLast = issue.code === 'custom' && issue.params?.unshownName === true;
  return [{ path: issue.path, message: issue.message, unshownLast }];
}

const PLACEHOLDER = '<invalid name #';

/** Whether a dotted path has a name written as its placeholder. */
export function hasUnshownName(dotted: string): boolean {
  return dotted.includes(PLACEHOLDER);
}

/** A path's first steps, as one text (names may hold dots: the dotted form is ambiguous). */
const stepsKey = (steps: Steps): string => JSON.stringify(steps);

/**
 * The dotted paths of `issues` (`router.breaker.failureThreshold`, `(root)` for the root), in order: a
 * name not to be shown is its placeholder there and in every other path through it (a bad header name's
 * value is under it too).
 *
 * @example dottedPaths([{ path: ['headers', 'Authorization: Bearer sk-1'], message, unshownLast: true }])
 *   // ['headers.<invalid name #1>']
 */
export function dottedPaths(issues: readonly IssueAt[]): string[] {
  const unshown = new Set(issues.filter((issue) => issue.unshownLast).map((issue) => stepsKey(issue.path)));
  const numbers = new Map<string, number>();
  const written = (step: string | number, key: string): string => {
    if (typeof step === 'number' || (SHOWN_NAME.test(step) && !unshown.has(key))) return String(step);
    const number = numbers.get(key) ?? numbers.size + 1;
    numbers.set(key, number);
    return `${PLACEHOLDER}${number}>`;
  };
  return issues.map(
    ({ path }) =>
      path.map((step, index) => written(step, stepsKey(path.slice(0, index + 1)))).join('.') || '(root)',
  );
}
