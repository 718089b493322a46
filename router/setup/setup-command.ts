/**
 * `fcm-router setup <agent> [--undo] [--yes] [--url URL]`: shows the change to the agent's own config file,
 * then (with `--yes` or a "y" on the terminal) keeps a backup beside it and writes it; `--undo` puts back
 * the backup when nothing else changed since, else removes only our part.
 */
import { mkdir, readFile, rm, copyFile, access } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { AGENT_EDITORS, SETUP_AGENTS, SNIPPET_ONLY, type AgentEditor } from './agents.js';
import { DEFAULT_PORT, fetchContextWindow, routerOrigin, type RouterTarget } from './router-target.js';
import { previewDiff } from './text-diff.js';

export interface SetupOptions {
  agent: string;
  undo: boolean;
  /** Write without asking. */
  yes: boolean;
  /** `--url`, else the running daemon's URL, else the default port. */
  url: string | undefined;
  daemonUrl: string | null;
  env: NodeJS.ProcessEnv;
  home: string;
  print: (line: string) => void;
  printError: (line: string) => void;
  /** Asks a y/N question on a terminal; null when there is none (then only `--yes` writes). */
  confirm: ((question: string) => Promise<boolean>) | null;
}

/** The backup kept beside `file` before our first write. */
export function backupPath(file: string): string {
  return `${file}.fcm-router.bak`;
}

async function readText(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

function originOf(options: SetupOptions): string {
  if (options.url !== undefined) return routerOrigin(options.url);
  if (options.daemonUrl !== null) return routerOrigin(options.daemonUrl);
  const port = options.env.FCM_ROUTER_PORT ?? String(DEFAULT_PORT);
  options.print(
    `No fcm-router is running; using http://127.0.0.1:${port} (start the daemon, or pass --url).`,
  );
  return `http://127.0.0.1:${port}`;
}

/** Runs the command; resolves with the exit code (2 for an unknown agent, 1 for a file left alone). */
export async function runSetup(options: SetupOptions): Promise<number> {
  const editor = AGENT_EDITORS.find((agent) => agent.id === options.agent);
  const snippet = SNIPPET_ONLY[options.agent];
  if (!editor && !snippet) {
    options.printError(`fcm-router: unknown agent "${options.agent}" (expected ${SETUP_AGENTS.join(', ')})`);
    return 2;
  }
  try {
    if (editor && options.undo) return await undoSetup(editor, options);
    const origin = originOf(options);
    const target: RouterTarget = { origin, contextWindow: await fetchContextWindow(origin) };
    if (!editor) {
      options.print(`Writing ${options.agent}'s config is not supported yet; here is what to set:\n`);
      options.print(snippet?.(target) ?? '');
      return 0;
    }
    if (target.contextWindow === null)
      options.print(`The router at ${origin} did not list a context window for "fcm"; none is set.`);
    return await applySetup(editor, target, options);
  } catch (error) {
    options.printError(`fcm-router: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** Shows the change, asks, and says whether to write it. */
async function approved(options: SetupOptions, diff: string): Promise<boolean> {
  options.print(diff);
  if (options.yes) return true;
  if (options.confirm && (await options.confirm('Write this change? [y/N] '))) return true;
  options.print('Nothing written; run again with --yes to write it.');
  return false;
}

async function applySetup(editor: AgentEditor, target: RouterTarget, options: SetupOptions): Promise<number> {
  const file = editor.file(options.env, options.home);
  const before = await readText(file);
  const after = editor.apply(before, file, target);
  if (after === before) {
    options.print(`${editor.name} already points at ${target.origin} (${file}); nothing to change.`);
    return 0;
  }
  if (!(await approved(options, previewDiff(file, before, after)))) return 0;
  const backup = backupPath(file);
  let kept = false;
  if (before !== null) {
    // The first backup is the config as it was before fcm-router: a later run must not replace it.
    const exists = await access(backup).then(
      () => true,
      () => false,
    );
    if (!exists) await copyFile(file, backup);
    kept = true;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, after);
  options.print(`Wrote ${file}${kept ? ` (the previous version is in ${backup})` : ''}.`);
  return 0;
}

async function undoSetup(editor: AgentEditor, options: SetupOptions): Promise<number> {
  const file = editor.file(options.env, options.home);
  const current = await readText(file);
  if (current === null) {
    options.print(`${file} does not exist; nothing to undo.`);
    return 0;
  }
  const backup = backupPath(file);
  const saved = await readText(backup);
  const restore = saved !== null && editor.sameApartFromOurs(current, saved, file);
  const after = restore ? saved : editor.strip(current, file);
  // No backup means we created the file: holding nothing but what setup writes into a new file, it goes.
  const fresh = editor.apply(null, file, { origin: 'http://127.0.0.1', contextWindow: null });
  const remove = saved === null && editor.sameApartFromOurs(current, fresh, file);
  if (after === current && !remove) {
    options.print(`${file} has nothing of fcm-router's; nothing to undo.`);
    return 0;
  }
  const diff = remove
    ? `--- ${file}\n(the file is removed: fcm-router created it)`
    : previewDiff(file, current, after);
  if (!(await approved(options, diff))) return 0;
  if (remove) await rm(file);
  else await writeFileAtomic(file, after);
  if (restore) await rm(backup);
  const how = restore ? `restored from ${backup}` : remove ? 'removed' : 'fcm-router settings removed';
  options.print(`${file}: ${how}.`);
  return 0;
}
