/**
 * `fcm-router setup <agent> [--undo] [--yes] [--url URL]`: shows the change to the agent's own config file,
 * then (with `--yes` or a "y" on the terminal) keeps a backup beside it and writes it; `--undo` puts back
 * the backup when nothing else changed since, else removes only our part.
 */
import { AGENT_EDITORS, SETUP_AGENTS, type AgentEditor } from './agents.js';
import { DEFAULT_PORT, portFromEnv } from '../config/port-setting.js';
import { fetchContextWindow, routerOrigin, type RouterTarget } from './router-target.js';
import { carryOut, planSetup, planUndo, type SetupPlan } from './setup-plan.js';

export { backupPath } from './setup-plan.js';

export interface SetupOptions {
  agent: string;
  undo: boolean;
  /** Write without asking. */
  yes: boolean;
  /** `--url`, else the running daemon's URL, else the default port. */
  url: string | undefined;
  /** The daemon running on the state folder, if any; `demo` when it is `npm run demo`'s. */
  daemon: { url: string; demo: boolean } | null;
  env: NodeJS.ProcessEnv;
  home: string;
  print: (line: string) => void;
  printError: (line: string) => void;
  /** Asks a y/N question on a terminal; null when there is none (then only `--yes` writes). */
  confirm: ((question: string) => Promise<boolean>) | null;
}

function originOf(options: SetupOptions): string {
  if (options.url !== undefined) return routerOrigin(options.url);
  if (options.daemon !== null) {
    if (options.daemon.demo)
      options.print(
        `The fcm-router running at ${options.daemon.url} is the demo: the agent is pointed at its port, with the demo set's window. Run setup again once your own daemon runs.`,
      );
    return routerOrigin(options.daemon.url);
  }
  const port = portFromEnv(options.env) ?? DEFAULT_PORT;
  options.print(
    `No fcm-router is running; using http://127.0.0.1:${port} (start the daemon, or pass --url).`,
  );
  return `http://127.0.0.1:${port}`;
}

/** Runs the command; resolves with the exit code (2 for an unknown agent, 1 for a file left alone). */
export async function runSetup(options: SetupOptions): Promise<number> {
  const editor = AGENT_EDITORS.find((agent) => agent.id === options.agent);
  if (!editor) {
    options.printError(
      `fcm-router: unknown agent "${options.agent}" (expected ${SETUP_AGENTS.join(', ')}); ` +
        'Cline, Aider and other agents are pointed at the router by hand: see docs/agents.md',
    );
    return 2;
  }
  try {
    const plan = options.undo ? await planUndo(editor, options) : await planWithTarget(editor, options);
    if (plan.nothing !== null) {
      options.print(plan.nothing);
      return 0;
    }
    if (await approved(options, plan.diff)) options.print(await carryOut(plan));
    return 0;
  } catch (error) {
    options.printError(`fcm-router: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function planWithTarget(editor: AgentEditor, options: SetupOptions): Promise<SetupPlan> {
  const origin = originOf(options);
  const target: RouterTarget = { origin, contextWindow: await fetchContextWindow(origin) };
  if (target.contextWindow === null)
    options.print(`The router at ${origin} did not list a context window for "fcm"; none is set.`);
  return planSetup(editor, options, target);
}

/** Shows the change, asks, and says whether to write it. */
async function approved(options: SetupOptions, diff: string): Promise<boolean> {
  options.print(diff);
  if (options.yes) return true;
  if (options.confirm && (await options.confirm('Write this change? [y/N] '))) return true;
  options.print('Nothing written; run again with --yes to write it.');
  return false;
}
