import { useState } from 'react';
import { isChangedOnDisk } from '../api/client.js';
import { errorText } from '../components/QueryStatus.js';
import { useDraft } from './drafts.js';
import { rebaseEdits, sameJson } from './rebase-edits.js';

/**
 * Unsaved edits carried over to a newer config: the values it changed too (the user's kept there), and who
 * changed it when that was a save made elsewhere on the same page (null: it changed on disk).
 */
export interface CarriedOver {
  conflicts: string[];
  by: string | null;
}

/** What a save did: the router's answer, or the error it was refused with. */
export type SaveResult<R> = { ok: true; result: R } | { ok: false; error: unknown };

export interface FileFormOptions<V> {
  /** The form's values as the config has them at `revision`. */
  read: V;
  /** The revision of config.json `read` comes from. */
  revision: string;
  /** What the form says when a save is refused because the file changed since it was filled in. */
  changedOnDisk: string;
  /** Who made `revision`, when it was a save from another editor on this page ("the JSON editor"). */
  savedBy?: string | null;
  /** Where unsaved edits are kept while the form is not on screen ({@link useDraft}); none: not kept. */
  draft?: string;
}

/** What a form over the file holds between renders, and keeps as its draft while it has unsaved edits. */
interface FileFormState<V> {
  /** The values as the file had them at `basedOn`, or as the form last saved them. */
  saved: V;
  values: V;
  basedOn: string;
  carried: CarriedOver | null;
}

/**
 * The values to name as both changed after a carry-over: this one's clashes, and those named before where
 * the user's value still differs from the file's (a later change elsewhere in the file does not hide them).
 */
function clashes<V extends object>(
  before: CarriedOver | null,
  now: readonly string[],
  value: V,
  file: V,
): string[] {
  const at = (values: V, key: string): unknown => (values as Record<string, unknown>)[key];
  const still = (before?.conflicts ?? []).filter((key) => !sameJson(at(value, key), at(file, key)));
  return [...new Set([...still, ...now])];
}

/**
 * The form at a newer `revision` of the file, which reads `read`: an untouched form takes it whole; unsaved
 * edits are carried over to it (the values the user did not touch take the file's, the ones both changed
 * are named). A revision that leaves the form's own values as they were changes nothing else.
 */
function followFile<V extends object>(
  state: FileFormState<V>,
  read: V,
  revision: string,
  savedBy: string | null,
): FileFormState<V> {
  const { saved, values, carried } = state;
  if (sameJson(read, saved)) return { ...state, basedOn: revision };
  if (sameJson(values, saved)) return { saved: read, values: read, basedOn: revision, carried };
  const rebased = rebaseEdits(saved, values, read);
  return {
    saved: read,
    values: rebased.value,
    basedOn: revision,
    // The file came to hold exactly the user's values: nothing is unsaved any more.
    carried: sameJson(rebased.value, read)
      ? null
      : { conflicts: clashes(carried, rebased.conflicts, rebased.value, read), by: savedBy },
  };
}

/**
 * A form over part of config.json that follows the file. It is filled from the config at a revision, and a
 * save carries that revision, so it is refused when the file changed since (the edits stay). A newer
 * config fills the form by itself: an untouched form takes it whole; unsaved edits are carried over to it
 * (the values the user did not touch take the file's, the ones both changed are named in `carried`). A
 * newer revision that leaves the form's own values as they were changes nothing the form shows. `send`
 * should reload the config before it resolves, so the form and its siblings are at the saved revision.
 */
export function useFileForm<V extends object>({
  read,
  revision,
  changedOnDisk,
  savedBy = null,
  draft,
}: FileFormOptions<V>) {
  const [state, setState] = useDraft<FileFormState<V>>(
    draft ?? null,
    () => ({ saved: read, values: read, basedOn: revision, carried: null }),
    (kept) => !sameJson(kept.values, kept.saved),
  );
  const { saved, values, basedOn, carried } = state;
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = !sameJson(values, saved);
  // While a save is on its way, a config read meanwhile may be older or newer than it: the save's answer
  // says which revision the form is at, and a newer one is taken after it. A form back on screen with its
  // draft made at an older revision is carried over here too.
  if (revision !== basedOn && !saving) {
    setState(followFile(state, read, revision, savedBy));
    if (dirty && !sameJson(read, saved)) setFailure(null);
  }

  /** An edit: what the last save said is about other values now. */
  const setValues = (next: V): void => {
    setState((now) => ({ ...now, values: next, carried: sameJson(next, now.saved) ? null : now.carried }));
    setFailure(null);
  };

  /**
   * Saves `sent` (the form's values unless given) through `send`, with the revision the form was filled
   * from. A refusal for an older revision says so; the config comes again and the edits are carried over.
   */
  const save = async <R extends { revision?: string }>(
    send: (sent: V, revision: string) => Promise<R>,
    sent: V = values,
  ): Promise<SaveResult<R>> => {
    setSaving(true);
    setFailure(null);
    try {
      const result = await send(sent, basedOn);
      setState((now) => ({
        ...now,
        saved: sent,
        carried: null,
        basedOn: result.revision ?? now.basedOn,
      }));
      return { ok: true, result };
    } catch (error) {
      setFailure(isChangedOnDisk(error) ? changedOnDisk : errorText(error));
      return { ok: false, error };
    } finally {
      setSaving(false);
    }
  };

  return { values, setValues, saved, dirty, carried, failure, saving, save };
}
