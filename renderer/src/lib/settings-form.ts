import type { ConfigInput, ConfigIssue } from '../../../router/api-types.js';
import { SETTINGS_FIELDS, type SettingsField } from './settings-fields.js';

/** The editor's text of every field, by dotted path. */
export type FormValues = Record<string, string>;

/** Reads a dotted path out of a JSON value; undefined where any step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The form as a config shows it (pass the effective config, or the defaults to reset). */
export function formFromConfig(config: ConfigInput): FormValues {
  return Object.fromEntries(
    SETTINGS_FIELDS.map((field) => [field.path, toText(readPath(config, field.path))]),
  );
}

/**
 * What a field's text means for the config. Numbers that do not parse are sent as typed, so the server's
 * schema (the one source of validation) names the problem; an empty number field means "the default".
 */
export function parseFieldText(field: SettingsField, text: string): unknown {
  const trimmed = text.trim();
  switch (field.kind) {
    case 'int':
    case 'number':
      if (trimmed === '') return undefined;
      return /^-?\d+(\.\d+)?(e\d+)?$/i.test(trimmed) ? Number(trimmed) : trimmed;
    case 'enum':
      return trimmed === '' ? undefined : trimmed;
    case 'bool':
      if (trimmed === '') return undefined;
      return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
    case 'modelKey':
      return trimmed === '' ? null : trimmed;
    case 'hedge':
      if (trimmed === '') return null;
      return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
  }
}

/** A section of `base` as written, or an empty one. */
function sectionOf(base: ConfigInput, section: SettingsField['section']): Record<string, unknown> {
  const written = readPath(base, `router.${section}`);
  return written !== null && typeof written === 'object' ? { ...(written as Record<string, unknown>) } : {};
}

/**
 * The full config to `PUT`: `base` (the file as written, secrets masked) with the form's fields written
 * into its failover and breaker sections. A key the form has no field for, and a value the form left as
 * written, stay as they are (a default written by hand included); a field emptied or set to its default is
 * left out, keeping the file short.
 */
export function buildConfig(base: ConfigInput, values: FormValues, defaults: ConfigInput): ConfigInput {
  const sections = { failover: sectionOf(base, 'failover'), breaker: sectionOf(base, 'breaker') };
  for (const field of SETTINGS_FIELDS) {
    const section = sections[field.section];
    const parsed = parseFieldText(field, values[field.path] ?? '');
    const asWritten = Object.hasOwn(section, field.key) && Object.is(parsed, section[field.key]);
    if (asWritten) continue;
    if (parsed === undefined || Object.is(parsed, readPath(defaults, field.path))) delete section[field.key];
    else section[field.key] = parsed;
  }
  const { failover: _failover, breaker: _breaker, ...others } = base.router ?? {};
  const router: Record<string, unknown> = { ...others };
  if (Object.keys(sections.failover).length > 0) router.failover = sections.failover;
  if (Object.keys(sections.breaker).length > 0) router.breaker = sections.breaker;
  const next: Record<string, unknown> = { ...base };
  delete next.router;
  if (Object.keys(router).length > 0) next.router = router;
  return next as ConfigInput;
}

export interface ChangeLine {
  path: string;
  label: string;
  from: string;
  to: string;
}

/**
 * The server's `changed` paths as readable `label: from → to` lines. `before` is the effective config
 * before saving, `after` the config as written after it: a value it leaves out is back at its default.
 */
export function describeChanges(
  changed: readonly string[],
  before: ConfigInput,
  after: ConfigInput,
  defaults: ConfigInput,
): ChangeLine[] {
  return changed.map((path) => {
    const field = SETTINGS_FIELDS.find((f) => f.path === path);
    const afterValue = readPath(after, path);
    return {
      path,
      label: field?.label ?? path,
      from: toText(readPath(before, path)) || '–',
      to: toText(afterValue === undefined ? readPath(defaults, path) : afterValue) || '–',
    };
  });
}

/** Server issues split into those a field shows and the rest, which the form shows on top. */
export function splitIssues(issues: readonly ConfigIssue[]): {
  byPath: Record<string, string[]>;
  other: ConfigIssue[];
} {
  const known = new Set(SETTINGS_FIELDS.map((f) => f.path));
  const byPath: Record<string, string[]> = {};
  const other: ConfigIssue[] = [];
  for (const issue of issues) {
    if (known.has(issue.path)) (byPath[issue.path] ??= []).push(issue.message);
    else other.push(issue);
  }
  return { byPath, other };
}
