import { useEffect, useRef } from 'react';
import type { ConfigResponse, ProviderView } from '../../../../router/api-types.js';
import { SETTINGS_FIELDS, type SettingsField } from '../../lib/settings-fields.js';
import { formFromConfig, splitIssues } from '../../lib/settings-form.js';
import { CarriedOverNotice } from '../../components/CarriedOverNotice.js';
import { SaveOutcome } from './SaveOutcome.js';
import { SettingsFieldInput } from './SettingsFieldInput.js';
import { useSettingsForm, type SaveConfig } from './use-settings-form.js';

export { CHANGED_ON_DISK } from './use-settings-form.js';

const SECTIONS: { id: SettingsField['section']; title: string; blurb: string }[] = [
  { id: 'failover', title: 'Failover', blurb: 'How hard one request tries, and what counts as an answer.' },
  {
    id: 'breaker',
    title: 'Circuit breaker',
    blurb: 'When a failing model is taken out of rotation, and for how long.',
  },
];

/**
 * After a save refused for its fields: the keyboard goes to the first field in error, unless it has moved
 * out of the form meanwhile.
 */
function focusFirstError(form: HTMLFormElement | null): void {
  const active = document.activeElement;
  if (form === null || (active !== null && active !== document.body && !form.contains(active))) return;
  form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

/**
 * The failover and breaker editor. Validation is the server's: a save sends the whole config and shows
 * each issue the schema reports next to the field whose path it names. A successful save is live.
 */
export function SettingsForm({
  config,
  providers,
  onSave,
  savedBy = null,
}: {
  config: ConfigResponse;
  /** The catalogue with key status, for the last-resort picker. */
  providers?: readonly ProviderView[];
  onSave: SaveConfig;
  /** Who made the config's revision, when it was a save from the JSON editor on this page. */
  savedBy?: string | null;
}) {
  const form = useSettingsForm(config, onSave, savedBy);
  const { values, saved } = form;
  const defaults = formFromConfig(config.defaults);
  const { byPath, other } = splitIssues(form.issues);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (form.refusals > 0) focusFirstError(formRef.current);
  }, [form.refusals]);
  return (
    <form className="settings-form" onSubmit={(e) => void form.submit(e)} noValidate ref={formRef}>
      {other.length > 0 && (
        <div className="notice notice-bad" role="alert">
          {other.map((issue) => (
            <p key={`${issue.path}:${issue.message}`}>
              <code>{issue.path}</code>: {issue.message}
            </p>
          ))}
        </div>
      )}
      {SECTIONS.map((section) => (
        <fieldset key={section.id} className="settings-section">
          <legend>
            {section.title} <span className="muted small mono">router.{section.id}</span>
          </legend>
          <p className="muted small">{section.blurb}</p>
          {SETTINGS_FIELDS.filter((f) => f.section === section.id).map((field) => (
            <SettingsFieldInput
              key={field.path}
              field={field}
              value={values[field.path] ?? ''}
              defaultText={defaults[field.path] ?? ''}
              errors={byPath[field.path]}
              dirty={values[field.path] !== saved[field.path]}
              providers={field.kind === 'modelKey' ? providers : undefined}
              onChange={(text) => form.setValues({ ...values, [field.path]: text })}
            />
          ))}
        </fieldset>
      ))}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" aria-disabled={form.saving}>
          {form.saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn" onClick={() => form.setValues(defaults)}>
          Reset to defaults
        </button>
        <button type="button" className="btn" onClick={() => form.setValues(saved)} disabled={!form.dirty}>
          Discard changes
        </button>
        {form.dirty && <span className="muted small">unsaved changes</span>}
      </div>
      {form.carried && (
        <CarriedOverNotice
          by={form.carried.by}
          conflicts={form.carried.conflicts.map((path) => ({
            name: SETTINGS_FIELDS.find((f) => f.path === path)?.label ?? path,
            file: saved[path] === '' ? 'nothing' : (saved[path] ?? null),
          }))}
        />
      )}
      <SaveOutcome
        failure={form.issues.length > 0 ? 'fix the fields marked above.' : form.failure}
        changes={form.changes}
      />
    </form>
  );
}
