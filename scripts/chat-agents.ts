/**
 * The `npm run test:agents` runs of the agents that speak chat completions: OpenCode (`opencode run`), Qwen
 * Code (`qwen -p`) and Continue (`cn -p`), headless against the daemon, each a plain answer and a shell-tool
 * loop, each configured in its own HOME with what the dashboard's snippet for it says, the set's window
 * among it; and what the router's history must show of them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryEntry } from '../router/api-types.js';
import { AGENT_REPLY } from '../router/test-support/agent-model.js';
import { agentSnippets } from '../renderer/src/lib/agent-snippets.js';
import { opencodeLimit } from '../router/setup/json-agents.js';
import type { UpstreamCall } from '../router/test-support/upstream-behaviours.js';
import { agentBin, bareEnv, runCommand, type Check } from './agent-runs.js';

/** One agent: its name, how it is pointed at the router, and its command for a prompt. */
export interface ChatAgent {
  name: string;
  /** A word of the User-Agent its requests carry (Continue's names the OpenAI SDK's class, `ls/JS`). */
  client: string;
  /** The dashboard's snippet it is set up with (by id), and the file under HOME the snippet goes into. */
  snippet: { id: string; file: string };
  /** Variables it needs besides its config. */
  env: NodeJS.ProcessEnv;
  /** Settings of the agent's own the run adds to a JSON snippet's file, beside what points it at the router. */
  settings?: Record<string, unknown>;
  /**
   * The output length it asks for once told the set's `window`, where it derives one from the window
   * (OpenCode: what its `limit` keeps for the answer); absent for an agent that asks none of its own.
   */
  outputFor?: (window: number) => number;
  /** The arguments for a plain prompt, and for one whose shell tool must be allowed to run. */
  args(prompt: string, tool: boolean): string[];
  bin: string;
}

/**
 * Writes the dashboard's copy-ready snippet for `agent` into its file under `home`, pointing at the daemon
 * at `base` with its set's `window`: what a user pastes.
 */
async function configure(agent: ChatAgent, base: string, home: string, window: number | null) {
  const { id, file } = agent.snippet;
  const found = agentSnippets(`${base}/v1`, 'fcm', window).find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no dashboard snippet for ${id}`);
  const text =
    agent.settings === undefined
      ? found.text
      : JSON.stringify({ ...(JSON.parse(found.text) as object), ...agent.settings }, null, 2);
  await mkdir(path.dirname(path.join(home, file)), { recursive: true });
  await writeFile(path.join(home, file), `${text}\n`);
}

const opencode: ChatAgent = {
  name: 'OpenCode',
  client: 'opencode',
  bin: 'opencode',
  snippet: { id: 'opencode', file: '.config/opencode/opencode.json' },
  // Its model catalogue is fetched from the internet on every start, and waited for when unreachable.
  env: { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' },
  // `fcm-router setup opencode`'s rule: the dashboard's snippet must agree with it.
  outputFor: (window) => opencodeLimit(window).output,
  // `run` allows its tools by default.
  args: (prompt) => ['run', prompt],
};

const qwen: ChatAgent = {
  name: 'Qwen Code',
  client: 'qwencode',
  bin: 'qwen',
  snippet: { id: 'qwen-code', file: '.qwen/settings.json' },
  env: {},
  // With `-p` it runs commands on pipes and takes their output at the child's exit, before the pipe is
  // read to its end: now and then, on a loaded machine, a command's output comes back empty. In a
  // terminal it reads the output to its end first.
  settings: { tools: { shell: { enableInteractiveShell: true } } },
  // Headless in its default approval mode, it does not offer the model its shell tool.
  args: (prompt, tool) => ['-p', prompt, ...(tool ? ['--yolo'] : [])],
};

const continueCli: ChatAgent = {
  name: 'Continue',
  client: 'ls/js',
  bin: 'cn',
  snippet: { id: 'continue', file: '.continue/config.yaml' },
  env: {},
  // `-p` runs its Bash tool without asking.
  args: (prompt) => ['-p', prompt],
};

/** The agents, each run against a daemon of its own. */
export const CHAT_AGENTS: readonly ChatAgent[] = [opencode, qwen, continueCli];

/**
 * One agent's plain answer and shell-tool loop against the daemon at `base` (its set's window `window`), at
 * home under `dir`.
 */
export async function runChatAgent(
  agent: ChatAgent,
  daemon: { base: string; window: number | null },
  dir: string,
): Promise<Check[]> {
  const { base, window } = daemon;
  const home = path.join(dir, 'home');
  const work = path.join(dir, 'work');
  // Qwen Code stops at once on a HOME that does not exist.
  await Promise.all([mkdir(work, { recursive: true }), mkdir(home, { recursive: true })]);
  await configure(agent, base, home, window);
  const env = { ...bareEnv(home), ...agent.env };
  const plain = await runCommand(agentBin(agent.bin), agent.args('Say hello.', false), env, work);
  // The command's text does not hold what it prints: an answer holding it shows the command ran.
  const id = `${agent.bin}-${Math.random().toString(36).slice(2, 10)}`;
  const prompt = `run: printf fcm-agent-%s ${id}`;
  const tool = await runCommand(agentBin(agent.bin), agent.args(prompt, true), env, work);
  return [
    {
      name: `${agent.name}: a plain answer`,
      ok: plain.code === 0 && plain.out.includes(AGENT_REPLY),
      detail: plain.out,
    },
    {
      name: `${agent.name}: a shell tool loop`,
      ok: tool.code === 0 && tool.out.includes(`The command printed: fcm-agent-${id}`),
      detail: tool.out,
    },
  ];
}

/**
 * What the requests `agent` got to the coding model (`calls`) show of the window it was told: an agent that
 * derives its output length from the window (`outputFor`) asks for exactly that in every request (OpenCode
 * asks for 32 000 without one). Nothing is checked of the others.
 */
export function chatOutputChecks(
  agent: ChatAgent,
  calls: readonly UpstreamCall[],
  window: number | null,
): Check[] {
  if (agent.outputFor === undefined) return [];
  const expected = window === null ? null : agent.outputFor(window);
  const asked = calls.map((call) => call.body?.max_tokens);
  return [
    {
      name: `${agent.name} told the set's window (${window ?? 'none'}): all ${calls.length} of its requests ask for ${expected ?? '?'} tokens of output`,
      ok: expected !== null && calls.length > 0 && asked.every((tokens) => tokens === expected),
      detail: `max_tokens: ${asked.join(', ')}`,
    },
  ];
}

/**
 * What the history of `agent`'s daemon must show (`entries`, over the set `holes` then `served`): every
 * request on the chat face from the agent, served by `served`, each after every hole or, on a conversation's
 * later turn, straight on `served` as its home (`sticky`; at least one must be: the tool loop's second turn
 * goes where its first was served, whether the agent names its session, as OpenCode does, or not).
 */
export function chatHistoryCheck(
  agent: ChatAgent,
  entries: readonly HistoryEntry[],
  route: { holes: readonly string[]; served: string },
  describe: (entry: HistoryEntry) => string,
): Check {
  const { holes, served } = route;
  const mine = (entry: HistoryEntry) =>
    entry.api === 'chat' && entry.client?.toLowerCase().includes(agent.client) === true;
  const wrong = entries.filter((entry) => {
    if (!mine(entry) || entry.outcome !== 'served' || entry.servedModel !== served) return true;
    const models = entry.attempts.map((attempt) => attempt.model).join(' ');
    return entry.sticky === undefined ? models !== [...holes, served].join(' ') : models !== served;
  });
  const sticky = entries.filter((entry) => entry.sticky === served).length;
  return {
    name: `router history: all ${entries.length} ${agent.name} requests on the chat face served by ${served}, ${sticky} of them straight on their conversation's model, the others after ${holes.join(' and ')}`,
    ok: entries.length > 0 && wrong.length === 0 && sticky > 0,
    detail: (wrong.length > 0 ? wrong : entries).map(describe).join('\n'),
  };
}
