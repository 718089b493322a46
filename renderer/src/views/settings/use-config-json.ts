import { useEffect, useMemo, useState } from 'react';
import type {
  ConfigCheckResponse,
  ConfigInput,
  ConfigIssue,
  ConfigResponse,
} from '../../../../router/api-types.js';
import { isApiError, isChangedOnDisk } from '../../api/client.js';
import { errorText } from '../../components/QueryStatus.js';
import { configText, placeIssues, readConfigText, type TextProblem } from '../../lib/config-json.js';
import { describeChanges, type ChangeLine } from '../../lib/settings-form.js';
import type { SaveConfig } from './use-settings-form.js';

/** How long typing pauses before the text is checked by the router. */
export const CHECK_AFTER_MS = 300;

/** What the editor says when the router refused a save because the file changed on disk. */
export const JSON_CHANGED_ON_DISK =
  'config.json was changed on disk since this text was loaded. The editor now shows the file as it is: make your change again.';

/** The issues the router found in one text. */
interface Checked {
  text: string;
  issues: ConfigIssue[];
}

/**
 * The JSON editor's state: the text, its problems (not JSON, else the router's check of it as you type),
 * and saving it through the same guarded save as the form (If-Match: the revision the text came from).
 */
export function useConfigJson(
  config: ConfigResponse,
  onSave: SaveConfig,
  check: (value: unknown) => Promise<ConfigCheckResponse>,
) {
  const [savedText, setSavedText] = useState(() => configText(config.config));
  const [text, setText] = useState(savedText);
  const [basedOn, setBasedOn] = useState(config.revision);
  const [reload, setReload] = useState(false);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [changes, setChanges] = useState<ChangeLine[] | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = text !== savedText;
  if (config.revision !== basedOn && (!dirty || reload)) {
    const fresh = configText(config.config);
    setBasedOn(config.revision);
    setSavedText(fresh);
    setText(fresh);
    setReload(false);
  }
  const read = useMemo(() => readConfigText(text), [text]);

  useEffect(() => {
    if (!read.ok) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      check(read.value)
        .then((answer) => live && setChecked({ text, issues: answer.issues }))
        .catch(() => undefined);
    }, CHECK_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [read, text, check]);

  // Issues of the text last checked, placed on the current one until its own check answers.
  const problems: TextProblem[] = useMemo(
    () => (read.ok ? placeIssues(text, checked?.issues ?? []) : [read.problem]),
    [read, text, checked],
  );

  const save = async (): Promise<void> => {
    if (!read.ok) return setFailure('the text is not valid JSON: see the marked line.');
    setSaving(true);
    setFailure(null);
    setChanges(null);
    try {
      const result = await onSave(read.value as ConfigInput, basedOn);
      const fresh = configText(result.config);
      setSavedText(fresh);
      setText(fresh);
      setChecked(null);
      if (result.revision !== undefined) setBasedOn(result.revision);
      setChanges(describeChanges(result.changed, config.effective, result.config, config.defaults));
    } catch (error) {
      if (isApiError(error) && error.issues.length > 0) {
        setChecked({ text, issues: error.issues });
        setFailure('fix the problems marked in the editor.');
      } else if (isChangedOnDisk(error)) {
        setFailure(JSON_CHANGED_ON_DISK);
        setReload(true);
      } else setFailure(errorText(error));
    } finally {
      setSaving(false);
    }
  };
  const discard = () => setText(savedText);
  return { text, setText, problems, dirty, saving, failure, changes, save, discard };
}
