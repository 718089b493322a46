import { useId, useState, type FormEvent } from 'react';
import type { ProviderView } from '../../../../router/api-types.js';
import { probeBody, probeFields, type ProbeFields } from './provider-settings.js';
import { useProviderSettings } from './use-provider-settings.js';

/**
 * A provider's health probes: the switch (saved at once), the daily budget and how much of it was spent
 * today, and how long a model may sit idle before it is probed (blank: only trials of tripped models).
 */
export function ProbeSettings({ provider }: { provider: ProviderView }) {
  const id = useId();
  const [fields, setFields] = useState<ProbeFields>(() => probeFields(provider.probe));
  const [local, setLocal] = useState<Record<string, string>>({});
  const { save, issues, general } = useProviderSettings(provider.id, 'probe');
  const send = (next: ProbeFields): void => {
    const body = probeBody(next);
    setLocal(body.ok ? {} : body.errors);
    if (body.ok) save.mutate(body.probe);
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    send(fields);
  };
  const errors = { ...local, ...issues };
  const { spentToday, dailyBudget } = provider.probe;
  return (
    <form className="provider-settings" onSubmit={submit} aria-label={`Probes of ${provider.name}`}>
      <label className="switch">
        <input
          type="checkbox"
          checked={fields.enabled}
          onChange={(e) => {
            const next = { ...fields, enabled: e.target.checked };
            setFields(next);
            send(next);
          }}
          disabled={save.isPending}
        />
        <span>Probes</span>
      </label>
      <label htmlFor={`${id}-budget`}>probes a day, at most</label>
      <input
        id={`${id}-budget`}
        inputMode="numeric"
        className="input-short"
        value={fields.dailyBudget}
        onChange={(e) => setFields({ ...fields, dailyBudget: e.target.value })}
        aria-invalid={errors.dailyBudget !== undefined}
      />
      <label htmlFor={`${id}-idle`}>probe a model idle for (minutes)</label>
      <input
        id={`${id}-idle`}
        inputMode="decimal"
        className="input-short"
        placeholder="never"
        value={fields.idleMinutes}
        onChange={(e) => setFields({ ...fields, idleMinutes: e.target.value })}
        aria-invalid={errors.idleIntervalMs !== undefined}
      />
      <button type="submit" className="btn btn-small" disabled={save.isPending}>
        Save probes
      </button>
      <span className="small muted">
        {spentToday} of {dailyBudget} spent today
      </span>
      {save.isSuccess && (
        <span className="small ok-text" role="status">
          saved
        </span>
      )}
      {errors.dailyBudget && <span className="field-error">daily budget: {errors.dailyBudget}</span>}
      {errors.idleIntervalMs && <span className="field-error">idle: {errors.idleIntervalMs}</span>}
      {general && <span className="field-error">{general}</span>}
    </form>
  );
}
