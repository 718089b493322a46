import { useId, useState, type FormEvent } from 'react';
import type { ProviderView } from '../../../../router/api-types.js';
import { CarriedOverNotice } from '../../components/CarriedOverNotice.js';
import { SaveButtons } from './SaveButtons.js';
import { probeBody, probeClashes, probeFields, type ProbeFields } from './provider-settings.js';
import { useProviderSettings } from './use-provider-settings.js';

/**
 * A provider's health probes: the switch (saved at once), the daily budget and how much of it was spent
 * today, and how long a model may sit idle before it is probed (blank: only trials of tripped models). It
 * follows config.json while open (edits carried over, clashes named) and saves with the revision it was
 * filled from.
 */
export function ProbeSettings({ provider, revision }: { provider: ProviderView; revision: string }) {
  const id = useId();
  const form = useProviderSettings<ProbeFields>(provider, revision, 'probe', probeFields(provider.probe));
  const { values: fields } = form;
  const [local, setLocal] = useState<Record<string, string>>({});
  const send = (next: ProbeFields): void => {
    const body = probeBody(next);
    setLocal(body.ok ? {} : body.errors);
    if (body.ok) void form.save(body.probe, next);
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    send(fields);
  };
  const errors = { ...local, ...form.issues };
  const { spentToday, dailyBudget } = provider.probe;
  return (
    <form className="provider-settings" onSubmit={submit} aria-label={`Probes of ${provider.name}`}>
      <label className="switch">
        <input
          type="checkbox"
          checked={fields.enabled}
          onChange={(e) => {
            const next = { ...fields, enabled: e.target.checked };
            form.setValues(next);
            send(next);
          }}
          disabled={form.saving}
        />
        <span>Probes</span>
      </label>
      <label htmlFor={`${id}-budget`}>probes a day, at most</label>
      <input
        id={`${id}-budget`}
        inputMode="numeric"
        className="input-short"
        value={fields.dailyBudget}
        onChange={(e) => form.setValues({ ...fields, dailyBudget: e.target.value })}
        aria-invalid={errors.dailyBudget !== undefined}
      />
      <label htmlFor={`${id}-idle`}>probe a model idle for (minutes)</label>
      <input
        id={`${id}-idle`}
        inputMode="decimal"
        className="input-short"
        placeholder="never"
        value={fields.idleMinutes}
        onChange={(e) => form.setValues({ ...fields, idleMinutes: e.target.value })}
        aria-invalid={errors.idleIntervalMs !== undefined}
      />
      <SaveButtons
        what="probes"
        providerName={provider.name}
        saving={form.saving}
        dirty={form.dirty}
        onDiscard={() => form.setValues(form.saved)}
      />
      <span className="small muted">
        {spentToday} of {dailyBudget} spent today
      </span>
      {form.done && (
        <span className="small ok-text" role="status">
          saved
        </span>
      )}
      {errors.dailyBudget && <span className="field-error">daily budget: {errors.dailyBudget}</span>}
      {errors.idleIntervalMs && <span className="field-error">idle: {errors.idleIntervalMs}</span>}
      {form.general && <span className="field-error">Not saved: {form.general}</span>}
      {form.carried && <CarriedOverNotice conflicts={probeClashes(form.carried.conflicts, form.saved)} />}
    </form>
  );
}
