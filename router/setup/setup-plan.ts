/**
 * What `setup` (or its undo) would do to one agent's config file, worked out before anything is written,
 * and carrying it out: a backup beside the file before the first write, an atomic write, or the backup put
 * back. The CLI and the dashboard's API use the same plans.
 */
import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { AgentEditor } from './agents.js';
import type { RouterTarget } from './router-target.js';
import { ChangeLog, readBeforeWriting, readText, removeEmptyFolders } from './setup-files.js';
import { previewDiff } from './text-diff.js';

/** Where an agent's file is looked for. */
export interface AgentHome {
  env: NodeJS.ProcessEnv;
  home: string;
}

/** One change to one agent's file, not yet made. */
export interface SetupPlan {
  agent: string;
  name: string;
  file: string;
  backup: string;
  undo: boolean;
  /** The file's text now; null when it does not exist. */
  before: string | null;
  /** What it becomes; null removes it (setup created it). */
  after: string | null;
  /** Undo puts the backup back, and removes it. */
  restore: boolean;
  /**
   * Undo of a file changed since setup: our part removed and the keys setup had set given back the
   * backup's values (these are the ones whose value changes), and the backup removed. Null otherwise.
   */
  broughtBack: string[] | null;
  /**
   * Undo that removes a file setup created: the topmost folder setup made for it, removed with it when
   * nothing else is left in it. Null otherwise.
   */
  folder: string | null;
  /** The change as a diff; `''` when there is nothing to do. */
  diff: string;
  /** Why there is nothing to do, or null when there is a change. */
  nothing: string | null;
}

/** The backup kept beside `file` before our first write. */
export function backupPath(file: string): string {
  return `${file}.fcm-router.bak`;
}

/**
 * The note left beside a file setup created: there was nothing to back up, and a later run must not take
 * setup's own file for the user's, or one undo would bring back setup's first version instead of no file.
 */
export function createdNotePath(file: string): string {
  return `${file}.fcm-router.created`;
}

/** The note's text for `file`, created by setup with `text`, in `folder` when setup made that folder. */
function createdNote(file: string, text: string, folder: string | null): string {
  const lines = [
    `fcm-router setup created ${path.basename(file)}; its --undo removes it.`,
    `sha256 ${digest(text)}`,
  ];
  if (folder !== null) lines.push(`folder ${folder}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The folder a created-note names as made by setup, or null: it must be the file's own folder or one above
 * it, so an edited note cannot point undo anywhere else.
 */
function madeFolderOf(note: string | null, file: string): string | null {
  const named = /^folder (.+)$/m.exec(note ?? '')?.[1];
  if (named === undefined || !path.isAbsolute(named)) return null;
  const below = path.relative(named, path.dirname(file));
  return below.startsWith('..') || path.isAbsolute(below) ? null : named;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Setting `editor`'s agent up for `target`; throws a message naming the file when it cannot be. */
export async function planSetup(
  editor: AgentEditor,
  where: AgentHome,
  target: RouterTarget,
): Promise<SetupPlan> {
  const file = editor.file(where.env, where.home);
  const refusal = (await editor.refusal?.(file)) ?? null;
  if (refusal !== null) throw new Error(refusal);
  const before = await readBeforeWriting(file);
  const after = editor.apply(before, file, target);
  const same = after === before;
  return {
    agent: editor.id,
    name: editor.name,
    file,
    backup: backupPath(file),
    undo: false,
    before,
    after,
    restore: false,
    broughtBack: null,
    folder: null,
    diff: same ? '' : previewDiff(file, before, after),
    nothing: same ? `${editor.name} already points at ${target.origin} (${file}); nothing to change.` : null,
  };
}

/** What undo makes of the file (null removes it), and what it does with the backup. */
type UndoText = Pick<SetupPlan, 'after' | 'restore' | 'broughtBack'>;

interface UndoInputs {
  editor: AgentEditor;
  file: string;
  current: string;
  /** The backup's text, null when there is none. */
  saved: string | null;
  /** The text of the note beside a file setup created, null when there is none. */
  note: string | null;
}

/**
 * Undo's text: the backup itself when the file holds nothing new apart from our part; else our part
 * removed and, from a backup, the values setup had replaced given back; a file setup created, as setup
 * last wrote it, removed.
 */
function undoText({ editor, file, current, saved, note }: UndoInputs): UndoText {
  if (saved !== null && editor.sameApartFromOurs(current, saved, file))
    return { after: saved, restore: true, broughtBack: null };
  const merged = saved === null ? null : editor.putBack(current, saved, file);
  if (merged !== null) return { after: merged.text, restore: false, broughtBack: merged.broughtBack };
  // Only the very file setup created is removed: one the user wrote in its place is theirs.
  const remove = saved === null && setupsOwn(note, current);
  return { after: remove ? null : editor.strip(current, file), restore: false, broughtBack: null };
}

/**
 * Undoing setup (see {@link undoText}); a backup used is removed, so a later setup backs up the file as it
 * is then.
 */
export async function planUndo(editor: AgentEditor, where: AgentHome): Promise<SetupPlan> {
  const file = editor.file(where.env, where.home);
  const backup = backupPath(file);
  const base = {
    agent: editor.id,
    name: editor.name,
    file,
    backup,
    undo: true,
    restore: false,
    folder: null,
  };
  const current = await readBeforeWriting(file);
  if (current === null)
    return {
      ...base,
      before: null,
      after: null,
      broughtBack: null,
      diff: '',
      nothing: `${file} does not exist; nothing to undo.`,
    };
  const saved = await readBeforeWriting(backup);
  const note = await readBeforeWriting(createdNotePath(file));
  const undo = undoText({ editor, file, current, saved, note });
  const { after } = undo;
  if (after === current)
    return {
      ...base,
      before: current,
      after,
      broughtBack: null,
      diff: '',
      nothing: `${file} has nothing of fcm-router's; nothing to undo.`,
    };
  const folder = after === null ? madeFolderOf(note, file) : null;
  const diff =
    after === null
      ? `--- ${file}\n(the file is removed: fcm-router created it${folder === null ? '' : `; so is the folder ${folder} it made, when nothing else is in it`})`
      : previewDiff(file, current, after);
  return { ...base, ...undo, folder, before: current, diff, nothing: null };
}

/** Names one plan: the dashboard applies only the change it showed, not one the file has moved on to. */
export function planId(plan: SetupPlan): string {
  const hash = createHash('sha256');
  for (const part of [plan.agent, String(plan.undo), plan.file, plan.before ?? '\0', plan.after ?? '\0'])
    hash.update(`${part.length}:${part}`);
  return hash.digest('hex').slice(0, 32);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Whether a file (its text `before`) is still the file setup created: its note (the text of
 * {@link createdNotePath}) names the very text setup last wrote. A file the user removed and wrote anew,
 * or edited, is theirs, and is backed up like any.
 */
function setupsOwn(note: string | null, before: string | null): boolean {
  return before !== null && note !== null && note.includes(`sha256 ${digest(before)}`);
}

/**
 * Makes the change; resolves with what was done, in a sentence. Throws, writing nothing, when the file is
 * no longer what the plan read (edited while the diff was on screen): the change would replace that edit.
 * A write that fails part-way is taken back, and the error says so.
 */
export async function carryOut(plan: SetupPlan): Promise<string> {
  if ((await readBeforeWriting(plan.file)) !== plan.before)
    throw new Error(
      `${plan.file} changed since setup read it; nothing written: run setup again to see the change`,
    );
  const changes = new ChangeLog();
  try {
    return plan.undo ? await carryOutUndo(plan, changes) : await carryOutSetup(plan, changes);
  } catch (error) {
    throw await changes.failed(error);
  }
}

async function carryOutSetup(plan: SetupPlan, changes: ChangeLog): Promise<string> {
  const { file, backup, before } = plan;
  const note = createdNotePath(file);
  const noteBefore = await readText(note);
  const created = before === null || setupsOwn(noteBefore, before);
  // The first backup is the config as it was before fcm-router: a later run must not replace it, and a
  // file setup created has none.
  const backedUp = !created && !(await exists(backup));
  if (backedUp) await changes.copy(file, backup);
  const made = await changes.makeFolder(path.dirname(file));
  const after = plan.after ?? '';
  if (created && !(await exists(backup))) {
    // A later run keeps the folder the first one made, so one undo still takes it.
    const folder = made ?? madeFolderOf(noteBefore, file);
    await changes.put(note, createdNote(file, after, folder), noteBefore);
  } else if (noteBefore !== null) await changes.put(note, null, noteBefore);
  await changes.put(file, after, before);
  if (backedUp) return `Wrote ${file} (the previous version is in ${backup}).`;
  if (await exists(backup)) return `Wrote ${file} (the version from before fcm-router is kept in ${backup}).`;
  return `Wrote ${file}.`;
}

async function carryOutUndo(plan: SetupPlan, changes: ChangeLog): Promise<string> {
  const { file, backup, broughtBack } = plan;
  const saved = plan.restore || broughtBack !== null ? await readText(backup) : null;
  await changes.put(file, plan.after, plan.before);
  // The backup's part is in the file now: a later setup backs up the file as it is then.
  if (saved !== null) await changes.put(backup, null, saved);
  // Undone: a later setup starts again from the file as it is now.
  const note = createdNotePath(file);
  const noteBefore = await readText(note);
  if (noteBefore !== null) await changes.put(note, null, noteBefore);
  // Last, and only while empty: a folder the user has put anything in since is theirs.
  const gone = plan.folder === null ? null : await removeEmptyFolders(path.dirname(file), plan.folder);
  const how = undoneHow(plan);
  return gone === null ? `${file}: ${how}.` : `${file}: ${how}, with the folder ${gone} setup made.`;
}

/** What undo did to the file, in words: the values it brought back by name, never by value. */
function undoneHow({ restore, after, broughtBack, backup }: SetupPlan): string {
  if (restore) return `restored from ${backup}`;
  if (after === null) return 'removed';
  if (broughtBack === null) return 'fcm-router settings removed';
  if (broughtBack.length === 0) return `fcm-router settings removed; ${backup} removed`;
  return `fcm-router settings removed, and what setup had replaced brought back from ${backup} (${broughtBack.join(', ')}); the backup removed`;
}
