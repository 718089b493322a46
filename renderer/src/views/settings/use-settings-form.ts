import { useState, type FormEvent } from 'react';
import type {
  ConfigInput,
  ConfigIssue,
  ConfigResponse,
  ConfigSaveResponse,
} from '../../../../router/api-types.js';
import { isApiError, isChangedOnDisk } from '../../api/client.js';
import { errorText } from '../../components/QueryStatus.js';
import { SETTINGS_FIELDS } from '../../lib/settings-fields.js';
import {
  buildConfig,
  describeChanges,
  formFromConfig,
  type ChangeLine,
  type FormValues,
} from '../../lib/settings-form.js';

/** What the form says when the router refused a save because the file changed on disk. */
export const CHANGED_ON_DISK =
  'config.json was changed on disk since this form was filled in. The form now shows the file as it is: make your change again.';

/** Saves the whole config; `revision` is the one the form was filled from. */
export type SaveConfig = (config: ConfigInput, revision: string) => Promise<ConfigSaveResponse>;

/**
 * The settings form's state: its values, the server's issues, and what the last save did. A save carries
 * the revision the form was filled from; when the file changed since, the router refuses it and the form
 * reloads. An untouched form follows a newer config by itself.
 */
export function useSettingsForm(config: ConfigResponse, onSave: SaveConfig) {
  const [saved, setSaved] = useState<FormValues>(() => formFromConfig(config.effective));
  const [values, setValues] = useState<FormValues>(saved);
  const [issues, setIssues] = useState<ConfigIssue[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [changes, setChanges] = useState<ChangeLine[] | null>(null);
  const [saving, setSaving] = useState(false);
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
  return { values, setValues, saved, issues, failure, changes, saving, dirty, submit };
}
