/**
 * What makes `config.json` unfit to be read as a config before its schema is looked at: bytes that are not
 * UTF-8, or a member name written twice in one object. Either would be changed by the next save (a bad
 * byte written back as U+FFFD, all but the last of the members dropped), so such a file is an invalid
 * edit, named by where it goes wrong and never quoted. Pure.
 */
import { readUtf8 } from '../files/utf8-text.js';
import { dottedPaths } from './issue-paths.js';
import { placeOf } from './json-error.js';
import { duplicateMembers } from './json-duplicates.js';
import type { ConfigIssue } from './schema.js';

/** How many names written twice are named: the first ones are enough to go and fix. */
const DUPLICATES_NAMED = 20;

/** A text without its byte-order mark, which the file may start with. */
export function withoutBom(text: string): string {
  return text.replace(/^\uFEFF/, '');
}

/** The file's text (its byte-order mark kept), or the issue of bytes that are not UTF-8. */
export function configTextOf(bytes: Uint8Array): { text: string } | { issue: ConfigIssue } {
  const read = readUtf8(bytes);
  if (read.ok) return { text: read.text };
  const { line, column } = placeOf(withoutBom(read.before), withoutBom(read.before).length);
  const message = `not UTF-8 text: the byte at line ${line}, column ${column} (byte offset ${read.byte}) is no part of a UTF-8 character; save the file as UTF-8`;
  return { issue: { path: '(root)', message } };
}

/** `line 2, column 5` for an offset in `text`. */
function placeText(text: string, offset: number): string {
  const { line, column } = placeOf(text, offset);
  return `line ${line}, column ${column}`;
}

/**
 * An issue for each member name written again in an object of `body` (JSON, without its byte-order mark),
 * at the member's path (`providers.groq`; a name unsafe to show is a placeholder, as in every issue path).
 */
export function duplicateIssues(body: string): ConfigIssue[] {
  const duplicates = duplicateMembers(body, DUPLICATES_NAMED);
  const paths = dottedPaths(
    duplicates.map(({ objectPath, name }) => ({
      path: [...objectPath, name],
      message: '',
      unshownLast: false,
    })),
  );
  return duplicates.map(({ first, again }, index) => ({
    path: paths[index] ?? '(root)',
    message: `written twice in one object, at ${placeText(body, first)} and at ${placeText(body, again)}: only the last would be read, and the first lost at the next save; merge them into one`,
  }));
}
