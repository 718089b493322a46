/**
 * The config editor's text: read as JSON, and the router's issues (by JSON path) placed on the lines they
 * are about, in the same words the form shows. Pure.
 */
import type { ConfigIssue } from '../../../router/api-types.js';
import { duplicateMembers } from '../../../router/config/json-duplicates.js';
import { firstSyntaxError, lineOf, locatePath } from './json-locate.js';

/** One problem with the text: where it is and what is wrong, in plain words. */
export interface TextProblem {
  from: number;
  to: number;
  /** 1-based, for the list beside the editor. */
  line: number;
  /** The JSON path the router named, or null for a syntax error. */
  path: string | null;
  message: string;
}

/** The config as the editor first shows it: the file as written (keys masked), two-space indented. */
export function configText(config: unknown): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** The parser's words without the position it adds (the problem's line says where) or the text it quotes. */
function syntaxWords(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/,\s*".*"\s*is not valid JSON$/s, '')
    .replace(/\s*in JSON at position \d+.*$/s, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '')
    .trim();
}

/**
 * A name written again in one object: `JSON.parse` keeps the last and drops the others without a word, so
 * the text is refused as the router refuses such a file, at the second name.
 */
function writtenTwice(text: string): TextProblem | null {
  const twice = duplicateMembers(text, 1)[0];
  if (twice === undefined) return null;
  const from = twice.again;
  const to = Math.min(text.length, from + JSON.stringify(twice.name).length);
  const message = `${JSON.stringify(twice.name)} is written twice in one object (first on line ${lineOf(text, twice.first)}): only the last would be kept and the first lost; merge them into one`;
  return { from, to, line: lineOf(text, from), path: null, message };
}

/** The text's value, or where and why it is not JSON (or a name is written twice in one object). */
export function readConfigText(
  text: string,
): { ok: true; value: unknown } | { ok: false; problem: TextProblem } {
  try {
    const value = JSON.parse(text) as unknown;
    const twice = writtenTwice(text);
    return twice === null ? { ok: true, value } : { ok: false, problem: twice };
  } catch (error) {
    const from = text.trim() === '' ? 0 : (firstSyntaxError(text) ?? text.length);
    const to = Math.min(text.length, from + 1);
    const words = text.trim() === '' ? 'the editor is empty' : syntaxWords(error);
    return {
      ok: false,
      problem: { from, to, line: lineOf(text, from), path: null, message: `not valid JSON: ${words}` },
    };
  }
}

/** The router's issues, each placed on what its path names (or the nearest part of it that is there). */
export function placeIssues(text: string, issues: readonly ConfigIssue[]): TextProblem[] {
  return issues.map((issue) => {
    const span = locatePath(text, issue.path);
    return { ...span, line: lineOf(text, span.from), path: issue.path, message: issue.message };
  });
}
