import { useId, useMemo, useState, type FormEvent } from 'react';
import type { ModelStateView, ProviderView } from '../../../../router/api-types.js';

/** Adds a catalogue model to the active set; the list offers every known model not in it yet. */
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
  const choices = useMemo(() => {
    const keys = new Set<string>(models.map((m) => m.key));
    for (const p of providers ?? []) for (const m of p.models) keys.add(m.key);
    return [...keys].filter((k) => !inSet.includes(k)).sort();
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
          <option key={key} value={key} />
        ))}
      </datalist>
      <button type="submit" className="btn btn-small" disabled={busy || !known}>
        Add to set
      </button>
    </form>
  );
}
