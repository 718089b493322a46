import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

/**
 * Unsaved edits of the dashboard's forms, kept above the views. Switching views unmounts the view left and
 * its forms; a form mounted again starts from its draft, still unsaved. A draft holds the revision of
 * config.json it was made at, so a form over the file carries it over to the file as it is by then, as it
 * does while on screen. In memory only: a key typed into a form never reaches storage. A reload loses them,
 * so the page asks first ({@link guardUnload}).
 */
const drafts = new Map<string, unknown>();

/** Whether any form holds unsaved edits, on screen or not. */
export function hasDrafts(): boolean {
  return drafts.size > 0;
}

/** Whether the form under `key` holds unsaved edits (its box can then start open). */
export function hasDraft(key: string): boolean {
  return drafts.has(key);
}

/** Drops the drafts whose key `gone` says names nothing any more (a provider no longer configured). */
export function dropDrafts(gone: (key: string) => boolean): void {
  for (const key of [...drafts.keys()]) if (gone(key)) drafts.delete(key);
}

/** Forgets every draft (between tests). */
export function clearDrafts(): void {
  drafts.clear();
}

/**
 * A form's state, kept as its draft under `key` while `unsaved(value)` says it holds edits (and forgotten
 * once it does not: saved or discarded). A form mounted again starts from its draft; `initial` makes the
 * state when there is none. A null `key` is plain state.
 */
export function useDraft<T>(
  key: string | null,
  initial: () => T,
  unsaved: (value: T) => boolean,
): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(() =>
    key !== null && drafts.has(key) ? (drafts.get(key) as T) : initial(),
  );
  const keep = key !== null && unsaved(value);
  useEffect(() => {
    if (key === null) return;
    if (keep) drafts.set(key, value);
    else drafts.delete(key);
  }, [key, keep, value]);
  return [value, setValue];
}

/**
 * A `beforeunload` listener: while any form holds unsaved edits, the browser asks before the page goes (a
 * reload, a closed tab), since the drafts live only in the page.
 */
export function guardUnload(event: BeforeUnloadEvent): void {
  if (!hasDrafts()) return;
  event.preventDefault();
  // Older browsers ask only when a return value is set.
  event.returnValue = '';
}
