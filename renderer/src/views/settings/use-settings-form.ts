import { useState, type FormEvent } from 'react';
import type {
  ConfigInput,
  ConfigIssue,
  ConfigResponse,
  ConfigSaveResponse,
} from '../../../../router/api-types.js';
import { isApiError, isChangedOnDisk } from '../../api/client.js';
import { errorText } from '../../components/QueryStatus.js';
import { rebaseEdits } from '../../lib/rebase-edits.js';
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
  'config.json was changed on disk since this form was filled in. The form now shows the file as it is, with your unsaved changes kept: check them and save again.';

/** Unsaved edits carried over to a config changed on disk: the fields the file changed too (yours kept). */
export interface CarriedOver {
  conflicts: string[];
}

/** Saves the whole config; `revision` is the one the form was filled from. */
export type SaveConfig = (config: ConfigInput, revision: string) => Promise<ConfigSaveResponse>;

/**
 * The settings form's state: its values, the server's issues, and what the last save did. A save carries
 * the revision the form was filled from, so it is refused when the file changed since. A newer config
 * fills the form by itself: an untouched form takes it whole; unsaved edits are carried over to it (the
 * fields the user did not touch take the file's values, the ones both changed are named).
 */
export function useSettingsForm(config: ConfigResponse, onSave: SaveConfig) {
  const [saved, setSaved] = useState<FormValues>(() => formFromConfig(config.effective));
  const [values, setValuesNow] = useState<FormValues>(saved);
  const [issues, setIssues] = useState<ConfigIssue[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [changes, setChanges] = useState<ChangeLine[] | null>(null);
  const [carried, setCarried] = useState<CarriedOver | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = SETTINGS_FIELDS.some((f) => values[f.path] !== saved[f.path]);
  /** The revision the form's values were filled from. */
  const [basedOn, setBasedOn] = useState(config.revision);
  if (config.revision !== basedOn) {
    const fresh = formFromConfig(config.effective);
    setBasedOn(config.revision);
    setSaved(fresh);
    if (dirty) {
      const rebased = rebaseEdits(saved, values, fresh);
      setValuesNow(rebased.value);
      setCarried({ conflicts: rebased.conflicts });
      setFailure(null);
    } else setValuesNow(fresh);
  }
  /** An edit: what the last save said is about other values now. */
  const setValues = (next: FormValues): void => {
    setValuesNow(next);
    setFailure(null);
    setChanges(null);
    if (SETTINGS_FIELDS.every((f) => next[f.path] === saved[f.path])) setCarried(null);
  };

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    setChanges(null);
    try {
      const result = await onSave(buildConfig(config.config, values, config.defaults), basedOn);
      setIssues([]);
      setSaved(values);
      setCarried(null);
      if (result.revision !== undefined) setBasedOn(result.revision);
      setChanges(describeChanges(result.changed, config.effective, result.config, config.defaults));
    } catch (error) {
      if (isApiError(error) && error.issues.length > 0) setIssues(error.issues);
      // The config is fetched again after a refusal: the edits are carried over to it when it comes.
      else if (isChangedOnDisk(error)) setFailure(CHANGED_ON_DISK);
      else setFailure(errorText(error));
    } finally {
      setSaving(false);
    }
  };
  return { values, setValues, saved, issues, failure, changes, carried, saving, dirty, submit };
}
