import { useId, type FormEvent } from 'react';
import type { ProviderView } from '../../../../router/api-types.js';
import { CarriedOverNotice } from '../../components/CarriedOverNotice.js';
import { SaveButtons } from './SaveButtons.js';
import {
  LIMIT_NAMES,
  LIMIT_WORDS,
  limitClashes,
  limitFields,
  limitsBody,
  NO_LIMIT,
  type LimitFields,
} from './provider-settings.js';
import { useProviderSettings } from './use-provider-settings.js';

/**
 * The free-tier limits the router counts for every model of a provider, over the catalogue's (shown as the
 * placeholder): blank keeps the catalogue's figure, `none` removes a limit. It follows config.json while
 * open (edits carried over, clashes named) and saves with the revision it was filled from.
 */
export function LimitsForm({ provider, revision }: { provider: ProviderView; revision: string }) {
  const id = useId();
  const form = useProviderSettings<LimitFields>(
    provider,
    revision,
    'limits',
    limitFields(provider.limits.override),
  );
  const { values: fields, issues } = form;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void form.save(limitsBody(fields));
  };
  const { published } = provider.limits;
  return (
    <form
      className="provider-settings limits-form"
      onSubmit={submit}
      aria-label={`Limits of ${provider.name}`}
    >
      {LIMIT_NAMES.map((name) => (
        <span key={name} className="limit-field">
          <label htmlFor={`${id}-${name}`}>{LIMIT_WORDS[name]}</label>
          <input
            id={`${id}-${name}`}
            className="input-short"
            placeholder={published[name] === null ? 'no limit' : String(published[name])}
            value={fields[name]}
            onChange={(e) => form.setValues({ ...fields, [name]: e.target.value })}
            aria-invalid={issues[name] !== undefined}
          />
          {issues[name] && <span className="field-error">{issues[name]}</span>}
        </span>
      ))}
      <SaveButtons
        what="limits"
        providerName={provider.name}
        saving={form.saving}
        dirty={form.dirty}
        onDiscard={() => form.setValues(form.saved)}
      />
      <span className="small muted">blank: the catalogue’s figure; “{NO_LIMIT}”: no limit</span>
      {form.done && (
        <span className="small ok-text" role="status">
          saved
        </span>
      )}
      {form.general && <span className="field-error">Not saved: {form.general}</span>}
      {form.carried && <CarriedOverNotice conflicts={limitClashes(form.carried.conflicts, form.saved)} />}
    </form>
  );
}
