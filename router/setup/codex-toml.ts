/**
 * Codex's `config.toml`, edited as text so comments and everything else survive: the top-level `model`,
 * `model_provider` and `model_context_window` lines and our own `[model_providers.fcm]` table, nothing more.
 * Pure: text in, text out.
 */
import { MODEL, type RouterTarget } from './router-target.js';

const TABLE = '[model_providers.fcm]';
const HEADER = /^\s*\[/;
const OUR_HEADER = /^\s*\[\s*model_providers\s*\.\s*(?:fcm|"fcm")\s*\]\s*(?:#.*)?$/;

function keyLine(key: string): RegExp {
  return new RegExp(`^\\s*${key}\\s*=`);
}

/** Index of the first table header: the lines before it are the top level. */
function topLevelEnd(lines: readonly string[]): number {
  const index = lines.findIndex((line) => HEADER.test(line));
  return index === -1 ? lines.length : index;
}

/** `[start, end)` of our table (header included), or null. */
function ourTable(lines: readonly string[]): [number, number] | null {
  const start = lines.findIndex((line) => OUR_HEADER.test(line));
  if (start === -1) return null;
  const next = lines.findIndex((line, index) => index > start && HEADER.test(line));
  let end = next === -1 ? lines.length : next;
  // Blank lines and comments at its end belong to what follows (a comment about the next table, say).
  while (end > start + 1 && /^\s*(?:#.*)?$/.test(lines[end - 1] ?? '')) end -= 1;
  return [start, end];
}

function splitLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

/** Sets top-level `key` (replacing its line, else adding one after the last top-level line). */
function setTopLevel(lines: string[], key: string, value: string): void {
  const end = topLevelEnd(lines);
  const line = `${key} = ${value}`;
  const at = lines.slice(0, end).findIndex((text) => keyLine(key).test(text));
  if (at !== -1) {
    lines[at] = line;
    return;
  }
  let insert = end;
  while (insert > 0 && (lines[insert - 1] ?? '').trim() === '') insert -= 1;
  lines.splice(insert, 0, line);
  // Keep a blank line between the top level and a table that follows it.
  if (insert + 1 < lines.length && HEADER.test(lines[insert + 1] ?? '')) lines.splice(insert + 1, 0, '');
}

function tableLines(target: RouterTarget): string[] {
  return [TABLE, 'name = "fcm-router"', `base_url = "${target.origin}/v1"`, 'wire_api = "responses"'];
}

/** `text` with Codex pointed at the router; every other line as it was. */
export function applyCodex(text: string | null, target: RouterTarget): string {
  const lines = splitLines(text);
  setTopLevel(lines, 'model', `"${MODEL}"`);
  setTopLevel(lines, 'model_provider', '"fcm"');
  if (target.contextWindow !== null) setTopLevel(lines, 'model_context_window', String(target.contextWindow));
  const table = ourTable(lines);
  if (table) {
    lines.splice(table[0], table[1] - table[0], ...tableLines(target));
  } else {
    while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
    if (lines.length > 0) lines.push('');
    lines.push(...tableLines(target));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `text` without our table and without the top-level lines that point at it (`model_provider = "fcm"`, and
 * then `model` and `model_context_window`, which were set for it). `anyModel` drops those three lines
 * whatever they say, to compare two versions apart from what setup sets.
 */
export function stripCodex(text: string, anyModel = false): string {
  const lines = splitLines(text);
  const table = ourTable(lines);
  if (table) {
    const [start, end] = table;
    const from = start > 0 && (lines[start - 1] ?? '').trim() === '' ? start - 1 : start;
    lines.splice(from, end - from);
  }
  const top = topLevelEnd(lines);
  const pointsAtUs = lines
    .slice(0, top)
    .some((line) => /^\s*model_provider\s*=\s*["']fcm["']\s*(?:#.*)?$/.test(line));
  if (pointsAtUs || anyModel) {
    const ours = ['model_provider', 'model', 'model_context_window'].map(keyLine);
    for (let index = top - 1; index >= 0; index -= 1) {
      if (ours.some((pattern) => pattern.test(lines[index] ?? ''))) lines.splice(index, 1);
    }
  }
  const kept = lines.join('\n').replace(/^\n+/, '');
  return kept.trim() === '' ? '' : `${kept.replace(/\n+$/, '')}\n`;
}
