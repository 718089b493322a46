import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useDraft } from '../../lib/drafts.js';
import { sameJson } from '../../lib/rebase-edits.js';
import { isApiError } from '../../api/client.js';
import { api } from '../../api/endpoints.js';
import { errorText } from '../../components/QueryStatus.js';
import {
  EMPTY_PROVIDER,
  issuesByField,
  newProviderBody,
  type FieldErrors,
  type ProviderField,
  type ProviderFields,
} from './provider-form.js';

/** One labelled field with its error under it. */
function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

const LABELS: Record<ProviderField, string> = {
  id: 'Id (letters, digits, . _ -)',
  name: 'Name (optional)',
  baseUrl: 'Base URL (OpenAI-compatible, before /chat/completions)',
  apiKeys: 'API keys, one per line (none for a local server)',
  models: 'Model ids, one per line or separated by commas',
  headers: 'Extra headers, “Name: value” per line (optional; not for secrets)',
};

const MULTILINE: ReadonlySet<ProviderField> = new Set(['apiKeys', 'models', 'headers']);

/** What to do with a provider just added: pin its first model, or, without models, where they go. */
function AddedLine({ id, models }: { id: string; models: readonly string[] }) {
  const first = models[0];
  return (
    <span className="small ok-text" role="status">
      {first === undefined ? (
        <>
          Added “{id}” without models: in Models, <em>Check the providers’ model lists</em> offers the models
          its server lists in <em>Add a model</em>; or list their ids in <code>providers.{id}.models</code>{' '}
          under Settings › Config file (JSON).
        </>
      ) : (
        <>
          Added “{id}”: pin it as{' '}
          <code>
            fcm:@{id}/{first}
          </code>{' '}
          or add its models to a set in Models.
        </>
      )}
    </span>
  );
}

/** Where the form's unsaved fields are kept while it is not on screen. */
export const ADD_PROVIDER_DRAFT = 'add-provider';

/**
 * Adds a provider the catalogue does not know: its address, keys, models and headers. The router's own
 * schema judges every field and its words show at the field; keys are sent once and never shown again.
 * What is typed outlasts a switch to another view (in the page's memory only).
 */
export function AddProvider() {
  const client = useQueryClient();
  const id = useId();
  const [fields, setFields] = useDraft<ProviderFields>(
    ADD_PROVIDER_DRAFT,
    () => EMPTY_PROVIDER,
    (typed) => !sameJson(typed, EMPTY_PROVIDER),
  );
  const [local, setLocal] = useState<FieldErrors>({});
  const add = useMutation({
    mutationFn: api.addProvider,
    onSuccess: () => setFields(EMPTY_PROVIDER),
    onSettled: () => client.invalidateQueries(),
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const body = newProviderBody(fields);
    setLocal(body.ok ? {} : body.errors);
    if (body.ok) add.mutate(body.body);
  };
  const sent = add.variables?.id ?? '';
  const fromRouter: FieldErrors = isApiError(add.error)
    ? add.error.issues.length > 0
      ? issuesByField(add.error.issues, sent)
      : { [add.error.code === 'provider_exists' ? 'id' : 'form']: errorText(add.error) }
    : {};
  const errors = { ...fromRouter, ...local };
  return (
    <form className="add-provider" onSubmit={submit} aria-label="Add a provider" noValidate>
      {(Object.keys(LABELS) as ProviderField[]).map((field) => (
        <Field key={field} id={`${id}-${field}`} label={LABELS[field]} error={errors[field]}>
          {MULTILINE.has(field) ? (
            <textarea
              id={`${id}-${field}`}
              rows={field === 'apiKeys' ? 2 : 3}
              spellCheck={false}
              className={field === 'apiKeys' ? 'secret-text' : undefined}
              value={fields[field]}
              onChange={(e) => setFields({ ...fields, [field]: e.target.value })}
              aria-invalid={errors[field] !== undefined}
              aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
            />
          ) : (
            <input
              id={`${id}-${field}`}
              spellCheck={false}
              value={fields[field]}
              onChange={(e) => setFields({ ...fields, [field]: e.target.value })}
              aria-invalid={errors[field] !== undefined}
              aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
            />
          )}
        </Field>
      ))}
      <div className="inline-form">
        <button type="submit" className="btn btn-primary btn-small" disabled={add.isPending}>
          Add provider
        </button>
        {add.isSuccess && <AddedLine id={sent} models={add.variables.models} />}
        {errors.form && <span className="field-error">{errors.form}</span>}
      </div>
    </form>
  );
}
