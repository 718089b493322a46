/**
 * Continue's `~/.continue/config.yaml`, edited as text so comments and layout survive: our item
 * (`name: fcm-router`) in the top-level `models` list, nothing more. Each edit is checked by parsing the
 * file before and after: apart from our item the data must be the same, or nothing is written. Pure.
 */
import { parseDocument, type YAMLError } from 'yaml';
import { sameJson } from './json-settings.js';
import { MODEL, PLACEHOLDER_KEY, type RouterTarget } from './router-target.js';

/** The `name` of our item in `models`. */
export const CONTINUE_MODEL_NAME = 'fcm-router';
/** What a new file starts with: the three keys Continue requires. */
const NEW_FILE = ['name: Local Config', 'version: 1.0.0', 'schema: v1'];
const MODELS_KEY = /^models\s*:\s*(.*)$/;
const OUR_NAME = new RegExp(`^\\s*(?:-\\s+)?name\\s*:\\s*["']?${CONTINUE_MODEL_NAME}["']?\\s*(?:#.*)?$`);

/** The `models` list of a file, by lines: where its key is, and each item's `[start, end)`. */
interface ModelsBlock {
  keyLine: number;
  /** Where the list ends (the next top-level line, or the end of the file). */
  end: number;
  indent: string;
  items: [number, number][];
}

function splitLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

function isFiller(line: string): boolean {
  return /^\s*(?:#.*)?$/.test(line);
}

/**
 * Why a YAML file did not parse, in words that never quote it (a config.yaml may hold keys): the parser's
 * own message quotes the lines around the fault, so only its code and place are kept.
 */
function whyNotYaml(error: YAMLError | undefined): string {
  if (error === undefined) return 'unreadable';
  const what = error.code.toLowerCase().replace(/_/g, ' ');
  const at = error.linePos?.[0];
  return at === undefined ? what : `${what} at line ${at.line}, column ${at.col}`;
}

/** The top-level data of `text` (null for an empty file); throws a message naming `file`. */
function parseData(text: string | null, file: string): Record<string, unknown> | null {
  const doc = parseDocument(text ?? '', { uniqueKeys: true });
  if (doc.errors.length > 0)
    throw new Error(`${file} is not valid YAML (${whyNotYaml(doc.errors[0])}); nothing was changed`);
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) return null;
  if (typeof data !== 'object' || Array.isArray(data))
    throw new Error(`${file} does not hold a YAML mapping; nothing was changed`);
  return data as Record<string, unknown>;
}

/** Finds the block list under the top-level `models:`; null when there is no such key. */
function modelsBlock(lines: readonly string[], file: string): ModelsBlock | null {
  const keyLine = lines.findIndex((line) => MODELS_KEY.test(line));
  if (keyLine === -1) return null;
  const inline = (MODELS_KEY.exec(lines[keyLine] ?? '')?.[1] ?? '').replace(/#.*$/, '').trim();
  let end = keyLine + 1;
  while (end < lines.length && (isFiller(lines[end] ?? '') || /^[\s-]/.test(lines[end] ?? ''))) end += 1;
  // Comments and blank lines at the end belong to what follows.
  while (end > keyLine + 1 && isFiller(lines[end - 1] ?? '')) end -= 1;
  const first = lines.slice(keyLine + 1, end).find((line) => !isFiller(line));
  const indent = first === undefined ? '  ' : (/^(\s*)-(?:\s|$)/.exec(first)?.[1] ?? null);
  if ((inline !== '' && inline !== '[]') || (inline === '[]' && first !== undefined) || indent === null)
    throw new Error(
      `${file}: models is not a list of "- name: …" items fcm-router can edit; nothing was changed`,
    );
  const items: [number, number][] = [];
  for (let at = keyLine + 1; at < end; at += 1) {
    if (!(lines[at] ?? '').startsWith(`${indent}-`)) continue;
    const last = items.at(-1);
    if (last) last[1] = trimmedEnd(lines, last[0], at);
    items.push([at, end]);
  }
  return { keyLine, end, indent, items };
}

/** `end` moved back over the blank and comment lines before it (they belong to what follows). */
function trimmedEnd(lines: readonly string[], start: number, end: number): number {
  let at = end;
  while (at > start + 1 && isFiller(lines[at - 1] ?? '')) at -= 1;
  return at;
}

function isOurs(lines: readonly string[], [start, end]: [number, number]): boolean {
  return lines.slice(start, end).some((line) => OUR_NAME.test(line));
}

function ourItem(target: RouterTarget, indent: string): string[] {
  const window =
    target.contextWindow === null
      ? []
      : ['  defaultCompletionOptions:', `    contextLength: ${target.contextWindow}`];
  return [
    `- name: ${CONTINUE_MODEL_NAME}`,
    '  provider: openai',
    `  model: ${MODEL}`,
    `  apiBase: ${target.origin}/v1`,
    `  apiKey: ${PLACEHOLDER_KEY}`,
    '  roles: [chat, edit, apply]',
    ...window,
  ].map((line) => `${indent}${line}`);
}

/** `lines` without our items; where the list's last remaining item ends (or its key line, +1). */
function withoutOurs(lines: string[], block: ModelsBlock): { lines: string[]; insertAt: number } {
  const ours = block.items.filter((item) => isOurs(lines, item));
  const kept = lines.filter((_, index) => !ours.some(([start, end]) => index >= start && index < end));
  const others = block.items.filter((item) => !isOurs(lines, item));
  const lastEnd = others.at(-1)?.[1] ?? block.keyLine + 1;
  const removedBefore = ours.filter(([start]) => start < lastEnd).reduce((n, [s, e]) => n + e - s, 0);
  return { lines: kept, insertAt: lastEnd - removedBefore };
}

/** The data apart from our item (and from `models` once nothing else is in it), to compare two versions. */
function dataApartFromOurs(data: Record<string, unknown> | null): Record<string, unknown> {
  const copy = { ...(data ?? {}) };
  if (Array.isArray(copy.models)) {
    const others = (copy.models as unknown[]).filter(
      (item) =>
        !(typeof item === 'object' && item !== null && 'name' in item && item.name === CONTINUE_MODEL_NAME),
    );
    if (others.length > 0) copy.models = others;
    else delete copy.models;
  } else if (copy.models === null) delete copy.models;
  return copy;
}

/** Throws unless `after` holds the same data as `before` apart from our item. */
function checkKept(before: string | null, after: string, file: string): void {
  const apart = (text: string | null) => dataApartFromOurs(parseData(text, file));
  if (!sameJson(apart(before), apart(after)))
    throw new Error(`${file}: fcm-router could not edit models without changing more; nothing was changed`);
}

/** `text` with our item at the end of `models`, every other line as it was. */
export function applyContinue(text: string | null, file: string, target: RouterTarget): string {
  // A new (or empty) file gets the keys Continue requires; they count as what was there.
  const base = parseData(text, file) === null ? [...splitLines(text), ...NEW_FILE] : splitLines(text);
  let lines = [...base];
  const block = modelsBlock(lines, file);
  if (block === null) {
    lines = [...lines, 'models:', ...ourItem(target, '  ')];
  } else {
    const kept = withoutOurs(lines, block);
    lines = kept.lines;
    if (/\[\]/.test(lines[block.keyLine] ?? '')) lines[block.keyLine] = 'models:';
    lines.splice(kept.insertAt, 0, ...ourItem(target, block.indent));
  }
  const after = `${lines.join('\n')}\n`;
  checkKept(`${base.join('\n')}\n`, after, file);
  return after;
}

/** `text` without our item (and without `models:` once nothing else is in it). */
export function stripContinue(text: string, file: string): string {
  parseData(text, file);
  const lines = splitLines(text);
  const block = modelsBlock(lines, file);
  if (block === null) return text;
  const kept = withoutOurs(lines, block);
  const others = block.items.filter((item) => !isOurs(lines, item));
  if (others.length === 0 && block.items.length > 0) kept.lines.splice(block.keyLine, 1);
  const after = kept.lines.length === 0 ? '' : `${kept.lines.join('\n')}\n`;
  checkKept(text, after, file);
  return after;
}

/** Whether two versions hold the same data apart from our item. */
export function sameContinueApartFromOurs(a: string, b: string, file: string): boolean {
  return sameJson(dataApartFromOurs(parseData(a, file)), dataApartFromOurs(parseData(b, file)));
}
