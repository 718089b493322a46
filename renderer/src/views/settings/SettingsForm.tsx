import { useState, type FormEvent } from 'react';
import type {
  ConfigInput,
  ConfigIssue,
  ConfigResponse,
  ConfigSaveResponse,
} from '../../../../router/api-types.js';
import { isApiError, isChangedOnDisk } from '../../api/client.js';
import { errorText } from '../../components/QueryStatus.js';
import { SETTINGS_FIELDS, type SettingsField } from '../../lib/settings-fields.js';
import {
  buildConfig,
  describeChanges,
  formFromConfig,
  splitIssues,
  type ChangeLine,
  type FormValues,
} from '../../lib/settings-form.js';
import { SettingsFieldInput } from './SettingsFieldInput.js';

const SECTIONS: { id: SettingsField['section']; title: string; blurb: string }[] = [
  { id: 'failover', title: 'Failover', blurb: 'How hard one request tries, and what counts as an answer.' },
  {
    id: 'breaker',
    title: 'Circuit breaker',
    blurb: 'When a failing model is taken out of rotation, and for how long.',
  },
];

/** What the form says when the router refused a save because the file changed on disk. */
export const CHANGED_ON_DISK =
  'config.json was changed on disk since this form was filled in. The form now shows the file as it is: make your change again.';

/**
 * The failover and breaker editor. Validation is the server's: a save sends the whole config and shows
 * each issue the schema reports next to the field whose path it names. A successful save is live. A save
 * carries the revision the form was filled from: when the file changed since, the router refuses it and
 * the form reloads; an untouched form follows a newer config by itself.
 */
export function SettingsForm({
  config,
  models,
  onSave,
}: {
  config: ConfigResponse;
  /** Known model keys, offered in the last-resort field. */
  models?: readonly string[];
  onSave(config: ConfigInput, revision: string): Promise<ConfigSaveResponse>;
}) {
  const [saved, setSaved] = useState<FormValues>(() => formFromConfig(config.effective));
  const [values, setValues] = useState<FormValues>(saved);
  const [issues, setIssues] = useState<ConfigIssue[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [changes, setChanges] = useState<ChangeLine[] | null>(null);
  const [saving, setSaving] = useState(false);
  const defaults = formFromConfig(config.defaults);
  const { byPath, other } = splitIssues(issues);
  const dirty = SETTINGS_FIELDS.some((f) => values[f.path] !== saved[f.path]);
  /** The revision the form's values were filled from. */
  const [basedOn, setBasedOn] = useState(config.revision);
  const [reload, setReload] = useState(false);
  if (config.revision !== basedOn && (!dirty || reload)) {
    const fresh = formFromConfig(config.effective);
    setBasedOn(config.revision);
    setSaved(fresh);
    setValues(fresh);
    setReload(false);
  }

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    setChanges(null);
    try {
      const result = await onSave(buildConfig(config.config, values, config.defaults), basedOn);
      setIssues([]);
      setSaved(values);
      if (result.revision !== undefined) setBasedOn(result.revision);
      setChanges(describeChanges(result.changed, config.effective, result.config, config.defaults));
    } catch (error) {
      if (isApiError(error) && error.issues.length > 0) setIssues(error.issues);
      else if (isChangedOnDisk(error)) {
        setFailure(CHANGED_ON_DISK);
        setReload(true);
      } else setFailure(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="settings-form" onSubmit={(e) => void submit(e)} noValidate>
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
              choices={field.kind === 'modelKey' ? models : undefined}
              onChange={(text) => setValues({ ...values, [field.path]: text })}
            />
          ))}
        </fieldset>
      ))}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn" onClick={() => setValues(defaults)}>
          Reset to defaults
        </button>
        <button type="button" className="btn" onClick={() => setValues(saved)} disabled={!dirty}>
          Discard changes
        </button>
        {dirty && <span className="muted small">unsaved changes</span>}
      </div>
      <div aria-live="polite">
        {failure && <p className="field-error">Not saved: {failure}</p>}
        {issues.length > 0 && <p className="field-error">Not saved: fix the fields marked above.</p>}
        {changes && (
          <div className="notice notice-ok" role="status">
            {changes.length === 0 ? (
              <p>Saved — nothing changed.</p>
            ) : (
              <>
                <p>Applied live:</p>
                <ul className="change-list">
                  {changes.map((c) => (
                    <li key={c.path}>
                      {c.label} <span className="mono muted">{c.path}</span>:{' '}
                      <span className="mono">{c.from}</span> → <span className="mono">{c.to}</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
    </form>
  );
}
