import { useId, useMemo, useState, type FormEvent } from 'react';
import type { ModelStateView, ProviderView } from '../../../../router/api-types.js';

/**
 * Adds a model to the active set; the list offers every known model not in it yet (not those a provider no
 * longer lists), and the ones a provider's own list holds that the catalogue lacks.
 */
export function AddModel({
  providers,
  models,
  inSet,
  busy,
  onAdd,
}: {
  providers: ProviderView[] | undefined;
  models: ModelStateView[];
  inSet: readonly string[];
  busy: boolean;
  onAdd(key: string): void;
}) {
  const inputId = useId();
  const listId = useId();
  const [value, setValue] = useState('');
  const { choices, fresh } = useMemo(() => {
    const keys = new Set<string>(models.filter((m) => m.blockedBy !== 'model_vanished').map((m) => m.key));
    const found = new Set<string>();
    for (const p of providers ?? []) {
      for (const m of p.models) if (!m.vanished) keys.add(m.key);
      for (const id of p.discoveredNew) found.add(`${p.id}/${id}`);
    }
    for (const key of found) keys.add(key);
    return { choices: [...keys].filter((k) => !inSet.includes(k)).sort(), fresh: found };
  }, [providers, models, inSet]);
  const known = choices.includes(value.trim());
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!known) return;
    onAdd(value.trim());
    setValue('');
  };
  return (
    <form className="add-model inline-form" onSubmit={submit}>
      <label htmlFor={inputId}>Add a model</label>
      <input
        id={inputId}
        list={listId}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder="provider/model — type to search"
        className="mono"
        autoComplete="off"
      />
      <datalist id={listId}>
        {choices.map((key) => (
          <option
            key={key}
            value={key}
            label={fresh.has(key) ? `${key} (new in the provider’s list)` : undefined}
          />
        ))}
      </datalist>
      <button type="submit" className="btn btn-small" disabled={busy || !known}>
        Add to set
      </button>
    </form>
  );
}
