import { useState, type FormEvent } from 'react';
import type {
  ConfigInput,
  ConfigIssue,
  ConfigResponse,
  ConfigSaveResponse,
} from '../../../../router/api-types.js';
import { isApiError } from '../../api/client.js';
import {
  buildConfig,
  describeChanges,
  formFromConfig,
  type ChangeLine,
  type FormValues,
} from '../../lib/settings-form.js';
import { useFileForm } from '../../lib/use-file-form.js';

/** What the form says when the router refused a save because the file changed on disk. */
export const CHANGED_ON_DISK =
  'config.json was changed on disk since this form was filled in. The form now shows the file as it is, with your unsaved changes kept: check them and save again.';

/** Saves the whole config; `revision` is the one the form was filled from. */
export type SaveConfig = (config: ConfigInput, revision: string) => Promise<ConfigSaveResponse>;

/**
 * The settings form's state: its values, the server's issues, and what the last save did. It follows
 * config.json as every form over the file does ({@link useFileForm}): a save carries the revision the form
 * was filled from, and a newer config carries unsaved edits over to it. Unsaved edits outlast a switch to
 * another view. `savedBy`: who made the config's
 * revision, when it was the other editor of the page.
 */
export function useSettingsForm(config: ConfigResponse, onSave: SaveConfig, savedBy: string | null = null) {
  const form = useFileForm<FormValues>({
    read: formFromConfig(config.effective),
    revision: config.revision,
    changedOnDisk: CHANGED_ON_DISK,
    savedBy,
    draft: 'settings-form',
  });
  const [issues, setIssues] = useState<ConfigIssue[]>([]);
  const [changes, setChanges] = useState<ChangeLine[] | null>(null);
  // Counts the saves refused for their fields, for the form to take the keyboard to the first of them.
  const [refusals, setRefusals] = useState(0);
  /** An edit: what the last save said is about other values now. */
  const setValues = (next: FormValues): void => {
    form.setValues(next);
    setChanges(null);
  };

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    // Save keeps the focus while it saves (it is not disabled), and Enter in a field submits too.
    if (form.saving) return;
    setChanges(null);
    const saved = await form.save((values, revision) =>
      onSave(buildConfig(config.config, values, config.defaults), revision),
    );
    if (saved.ok) {
      setIssues([]);
      const { result } = saved;
      setChanges(describeChanges(result.changed, config.effective, result.config, config.defaults));
    } else if (isApiError(saved.error) && saved.error.issues.length > 0) {
      setIssues(saved.error.issues);
      setRefusals((n) => n + 1);
    }
  };
  const { values, saved, failure, carried, saving, dirty } = form;
  return { values, setValues, saved, issues, refusals, failure, changes, carried, saving, dirty, submit };
}
