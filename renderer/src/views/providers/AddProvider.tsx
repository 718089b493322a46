import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useDraft } from '../../lib/drafts.js';
import { sameJson } from '../../lib/rebase-edits.js';
import { isApiError } from '../../api/client.js';
import { api } from '../../api/endpoints.js';
import { errorText } from '../../components/QueryStatus.js';
import {
  currentErrors,
  EMPTY_PROVIDER,
  issuesByField,
  newProviderBody,
  type FieldErrors,
  type ProviderField,
  type ProviderFields,
  type Verdict,
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

/** The router's refusal of the provider sent as `id`, by field. */
function routerErrors(error: unknown, id: string): FieldErrors {
  if (isApiError(error) && error.issues.length > 0) return issuesByField(error.issues, id);
  const field = isApiError(error) && error.code === 'provider_exists' ? 'id' : 'form';
  return { [field]: errorText(error) };
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
  // The last check's errors (the page's own, or else the router's), with the values they are about.
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const add = useMutation({
    mutationFn: api.addProvider,
    onSuccess: () => setFields(EMPTY_PROVIDER),
    onSettled: () => client.invalidateQueries(),
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const checked = newProviderBody(fields);
    if (!checked.ok) {
      // The router's words about earlier values go with the outcome of the last add.
      setVerdict({ errors: checked.errors, judged: fields });
      add.reset();
      return;
    }
    setVerdict(null);
    const judged = fields;
    add.mutate(checked.body, {
      onError: (error) => setVerdict({ errors: routerErrors(error, checked.body.id), judged }),
    });
  };
  const sent = add.variables?.id ?? '';
  const errors = currentErrors(verdict, fields);
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
