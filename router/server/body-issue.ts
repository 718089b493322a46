/**
 * A management call's body problem as a sentence a person reads: what was given and what is expected
 * (`"has space" is not a set name: use letters, digits, . _ -`). The JSON path stays for API callers in
 * the error's `param`, not in the sentence; a key's value is never quoted (the sentence names its field).
 */
import type { z } from 'zod/v3';

/** Field messages that name what is expected ("a set name: …", "one of a, b"): read after "is not". */
const EXPECTED = /^(a|an|one of|text|true or false|null)\b/;

/** Fields whose values are secrets (keys, and headers that may carry one): never quoted back. */
const SECRET_FIELDS: ReadonlySet<string> = new Set(['apiKey', 'apiKeys', 'key', 'headers']);

/** Longest shown value: a body may be up to 1 MiB. */
const MAX_SHOWN = 60;

/** The value at `path` in `body`, or undefined when it is not there. */
function valueAt(body: unknown, path: readonly (string | number)[]): unknown {
  let value = body;
  for (const step of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, step)) return undefined;
    value = (value as Record<string | number, unknown>)[step];
  }
  return value;
}

/** A value as JSON, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/**
 * The JSON path of an issue, dotted (`to`, `models.0`; an unknown field's own, `extra`), or `body` for the
 * body itself.
 */
export function issueParam(issue: z.ZodIssue): string {
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys.slice(0, 1)] : issue.path;
  return path.map(String).join('.') || 'body';
}

/** One issue of a request body as a plain sentence naming what was given and what is expected. */
export function issueSentence(issue: z.ZodIssue, body: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    // Quoted as JSON: a key the caller made up may hold control characters a terminal would act on.
    const names = issue.keys.map((key) => JSON.stringify([...issue.path, key].join('.')));
    return `unknown field${names.length > 1 ? 's' : ''} ${names.join(', ')}`;
  }
  const given = valueAt(body, issue.path);
  if (given === undefined) return `"${issueParam(issue)}" is missing`;
  if (issue.path.some((step) => typeof step === 'string' && SECRET_FIELDS.has(step)))
    return `the ${issueParam(issue)} given is not accepted: ${issue.message}`;
  if (EXPECTED.test(issue.message)) return `${shown(given)} is not ${issue.message}`;
  return `${shown(given)} is not accepted: ${issue.message}`;
}
