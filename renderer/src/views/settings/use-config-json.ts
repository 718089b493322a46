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
import { rebaseEdits, sameJson } from '../../lib/rebase-edits.js';
import { useDraft } from '../../lib/drafts.js';
import type { CarriedOver } from '../../lib/use-file-form.js';
import { describeChanges, type ChangeLine } from '../../lib/settings-form.js';
import type { SaveConfig } from './use-settings-form.js';

/** How long typing pauses before the text is checked by the router. */
export const CHECK_AFTER_MS = 300;

/** What the editor says when the router refused a save because the file changed on disk. */
export const JSON_CHANGED_ON_DISK =
  'config.json was changed on disk since this text was loaded. Your text is kept: once it is valid JSON it is carried over to the file as it is now, for you to check and save again.';

/** The issues the router found in one text, and the providers whose keys saving it would drop. */
interface Checked {
  text: string;
  issues: ConfigIssue[];
  keysDropped: string[];
}

/**
 * The text's problems: where it stops being JSON, else the router's check of it (asked once typing pauses
 * for {@link CHECK_AFTER_MS}), placed on the current text until its own check answers.
 */
function useTextProblems(
  text: string,
  read: ReturnType<typeof readConfigText>,
  check: (value: unknown) => Promise<ConfigCheckResponse>,
) {
  const [checked, setChecked] = useState<Checked | null>(null);
  useEffect(() => {
    if (!read.ok) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      check(read.value)
        .then(
          (answer) => live && setChecked({ text, issues: answer.issues, keysDropped: answer.keysDropped }),
        )
        .catch(() => undefined);
    }, CHECK_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [read, text, check]);

  const problems: TextProblem[] = useMemo(
    () => (read.ok ? placeIssues(text, checked?.issues ?? []) : [read.problem]),
    [read, text, checked],
  );

  // Said only of the text it was checked for: an edit since may have put the address back.
  const keysDropped = read.ok && checked?.text === text ? checked.keysDropped : [];
  return { problems, keysDropped, setChecked };
}

/** What the editor holds between renders, and keeps as its draft while the text has unsaved edits. */
interface JsonState {
  /** The config as text at `basedOn`, or as the editor last saved it. */
  savedText: string;
  text: string;
  basedOn: string;
  carried: CarriedOver | null;
}

/**
 * The editor at the config's newer revision: an untouched text is replaced by the file's; unsaved edits
 * (once the text is JSON) are carried over to it, the values both changed named. A new revision with the
 * same config (only its layout changed) leaves the text as typed.
 */
function followConfig(
  state: JsonState,
  read: ReturnType<typeof readConfigText>,
  config: ConfigResponse,
  savedBy: string | null,
): JsonState {
  const fresh = configText(config.config);
  const at = { ...state, savedText: fresh, basedOn: config.revision };
  if (state.text === state.savedText || !read.ok) return { ...at, text: fresh };
  const before = readConfigText(state.savedText);
  const base = before.ok ? before.value : {};
  if (sameJson(base, config.config)) return at;
  const rebased = rebaseEdits<unknown>(base, read.value, config.config);
  return {
    ...at,
    text: configText(rebased.value as ConfigInput),
    carried: { conflicts: rebased.conflicts, by: savedBy },
  };
}

/**
 * The JSON editor's state: the text, its problems (not JSON, else the router's check of it as you type),
 * and saving it through the same guarded save as the form (If-Match: the revision the text came from). A
 * newer config on disk replaces an untouched text; unsaved edits are carried over to it once the text is
 * JSON (until then it stays as typed, and a save is refused for the older revision).
 */
export function useConfigJson(
  config: ConfigResponse,
  onSave: SaveConfig,
  check: (value: unknown) => Promise<ConfigCheckResponse>,
  /** Who made the config's revision, when it was a save from the Settings form on this page. */
  savedBy: string | null = null,
  /** Where unsaved text is kept while the editor is not on screen ({@link useDraft}); none: not kept. */
  draft?: string,
) {
  const [state, setState] = useDraft<JsonState>(
    draft ?? null,
    () => ({
      savedText: configText(config.config),
      text: configText(config.config),
      basedOn: config.revision,
      carried: null,
    }),
    (kept) => kept.text !== kept.savedText,
  );
  const { savedText, text, basedOn, carried } = state;
  const [failure, setFailure] = useState<string | null>(null);
  const [changes, setChanges] = useState<ChangeLine[] | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = text !== savedText;
  const read = useMemo(() => readConfigText(text), [text]);
  // While a save is on its way, a config read meanwhile may be older or newer than it: the save's answer
  // says which revision the text is at. A text back on screen from its draft is carried over here too.
  if (config.revision !== basedOn && !saving && (!dirty || read.ok)) {
    const next = followConfig(state, read, config, savedBy);
    setState(next);
    if (next.carried !== carried) setFailure(null);
  }
  /** An edit: what the last save said is about another text now. */
  const setText = (next: string): void => {
    // The editor echoes a text put into it from here (a save, the file): that is no edit.
    if (next === text) return;
    setState((now) => ({ ...now, text: next, carried: next === now.savedText ? null : now.carried }));
    setFailure(null);
    setChanges(null);
  };

  const { problems, keysDropped, setChecked } = useTextProblems(text, read, check);

  const save = async (): Promise<void> => {
    if (!read.ok) return setFailure('the text is not valid JSON: see the marked line.');
    setSaving(true);
    setFailure(null);
    setChanges(null);
    try {
      const result = await onSave(read.value as ConfigInput, basedOn);
      const fresh = configText(result.config);
      setState((now) => ({
        savedText: fresh,
        text: fresh,
        carried: null,
        basedOn: result.revision ?? now.basedOn,
      }));
      setChecked(null);
      setChanges(describeChanges(result.changed, config.effective, result.config, config.defaults));
    } catch (error) {
      if (isApiError(error) && error.issues.length > 0) {
        setChecked({ text, issues: error.issues, keysDropped: [] });
        setFailure('fix the problems marked in the editor.');
      } else if (isChangedOnDisk(error)) setFailure(JSON_CHANGED_ON_DISK);
      else setFailure(errorText(error));
    } finally {
      setSaving(false);
    }
  };
  const discard = () => setText(savedText);
  return { text, setText, problems, keysDropped, dirty, saving, failure, changes, carried, save, discard };
}
