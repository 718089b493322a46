import { useId, useState, type FormEvent } from 'react';
import type { ProviderView } from '../../../../router/api-types.js';
import {
  LIMIT_NAMES,
  LIMIT_WORDS,
  limitFields,
  limitsBody,
  NO_LIMIT,
  type LimitFields,
} from './provider-settings.js';
import { useProviderSettings } from './use-provider-settings.js';

/**
 * The free-tier limits the router counts for every model of a provider, over the catalogue's (shown as the
 * placeholder): blank keeps the catalogue's figure, `none` removes a limit.
 */
export function LimitsForm({ provider }: { provider: ProviderView }) {
  const id = useId();
  const [fields, setFields] = useState<LimitFields>(() => limitFields(provider.limits.override));
  const { save, issues, general } = useProviderSettings(provider.id, 'limits');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    save.mutate(limitsBody(fields));
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
            onChange={(e) => setFields({ ...fields, [name]: e.target.value })}
            aria-invalid={issues[name] !== undefined}
          />
          {issues[name] && <span className="field-error">{issues[name]}</span>}
        </span>
      ))}
      <button type="submit" className="btn btn-small" disabled={save.isPending}>
        Save limits
      </button>
      <span className="small muted">blank: the catalogue’s figure; “{NO_LIMIT}”: no limit</span>
      {save.isSuccess && (
        <span className="small ok-text" role="status">
          saved
        </span>
      )}
      {general && <span className="field-error">{general}</span>}
    </form>
  );
}
