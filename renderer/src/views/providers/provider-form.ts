import type { ConfigIssue } from '../../../../router/api-types.js';
import type { NewProviderBody } from '../../api/endpoints.js';

/** The Add provider form's fields, as typed. */
export interface ProviderFields {
  id: string;
  name: string;
  baseUrl: string;
  /** One key per line. */
  apiKeys: string;
  /** Model ids, one per line or separated by commas. */
  models: string;
  /** `Name: value`, one header per line. */
  headers: string;
}

export type ProviderField = keyof ProviderFields;
/** What is wrong, by field; `form` for what no field holds. */
export type FieldErrors = Partial<Record<ProviderField | 'form', string>>;

export const EMPTY_PROVIDER: ProviderFields = {
  id: '',
  name: '',
  baseUrl: '',
  apiKeys: '',
  models: '',
  headers: '',
};

/** The non-blank entries of a text area, trimmed: one per line (or per comma, with `commas`). */
export function entries(text: string, commas = false): string[] {
  return text
    .split(commas ? /[\n,]/ : /\n/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** `Name: value` lines as headers, or which line is not one. */
export function parseHeaders(
  text: string,
): { ok: true; headers: Record<string, string> } | { ok: false; message: string } {
  const headers: Record<string, string> = {};
  for (const line of entries(text)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, message: `“${line}” is not “Name: value”` };
    Object.defineProperty(headers, line.slice(0, colon).trim(), {
      value: line.slice(colon + 1).trim(),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ok: true, headers };
}

/** The fields a provider cannot do without, and what each says when left blank. */
const REQUIRED: Partial<Record<ProviderField, string>> = {
  id: 'required: letters, digits, . _ -',
  baseUrl: 'required: the server’s http(s) URL',
};

/** What the page itself finds wrong, every field at once: a required field left blank, a header line. */
function formProblems(fields: ProviderFields): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, words] of Object.entries(REQUIRED) as [ProviderField, string][])
    if (fields[field].trim() === '') errors[field] = words;
  const headers = parseHeaders(fields.headers);
  if (!headers.ok) errors.headers = headers.message;
  return errors;
}

/**
 * What the form sends to `POST /api/providers/add`. Only blanks and the header lines' layout are checked
 * here; every value is judged by the router's own schema, whose words come back by field
 * ({@link issuesByField}).
 */
export function newProviderBody(
  fields: ProviderFields,
): { ok: true; body: NewProviderBody } | { ok: false; errors: FieldErrors } {
  const errors = formProblems(fields);
  const headers = parseHeaders(fields.headers);
  if (!headers.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  const name = fields.name.trim();
  return {
    ok: true,
    body: {
      id: fields.id.trim(),
      ...(name === '' ? {} : { name }),
      baseUrl: fields.baseUrl.trim(),
      apiKeys: entries(fields.apiKeys),
      models: entries(fields.models, true),
      ...(Object.keys(headers.headers).length === 0 ? {} : { headers: headers.headers }),
    },
  };
}

/** Errors found in the fields as they were (`judged`): those of the fields that still hold those values. */
export interface Verdict {
  errors: FieldErrors;
  judged: ProviderFields;
}

/**
 * The errors of `verdict` still true of `fields`: a field edited since is judged again at the next
 * submit, so its error goes. What no field holds (`form`) stays until then.
 */
export function currentErrors(verdict: Verdict | null, fields: ProviderFields): FieldErrors {
  if (verdict === null) return {};
  const errors: FieldErrors = {};
  for (const [field, words] of Object.entries(verdict.errors) as [ProviderField | 'form', string][])
    if (field === 'form' || fields[field] === verdict.judged[field]) errors[field] = words;
  return errors;
}

/** The form field a part of `providers.<id>` belongs to, and what the message is about within it. */
function fieldOf(rest: readonly string[]): { field: ProviderField | 'form'; about: string | null } {
  const [head, item] = rest;
  if (head === undefined) return { field: 'id', about: null };
  if (head === 'apiKey') return { field: 'apiKeys', about: 'key 1' };
  if (head === 'apiKeys') return { field: 'apiKeys', about: `key ${Number(item) + 2}` };
  if (head === 'models')
    return { field: 'models', about: item === undefined ? null : `model ${Number(item) + 1}` };
  if (head === 'headers') return { field: 'headers', about: rest.slice(1).join('.') || null };
  if (head === 'baseUrl' || head === 'name') return { field: head, about: null };
  return { field: 'form', about: rest.join('.') };
}

/** The router's issues about `providers.<id>`, by form field, in its words (the first per field). */
export function issuesByField(issues: readonly ConfigIssue[], id: string): FieldErrors {
  const errors: FieldErrors = {};
  const prefix = `providers.${id}`;
  for (const issue of issues) {
    if (issue.path !== prefix && !issue.path.startsWith(`${prefix}.`)) {
      errors.form ??= `${issue.path}: ${issue.message}`;
      continue;
    }
    const rest = issue.path === prefix ? [] : issue.path.slice(prefix.length + 1).split('.');
    const { field, about } = fieldOf(rest);
    errors[field] ??= about === null ? issue.message : `${about}: ${issue.message}`;
  }
  return errors;
}
