/**
 * The `npm run test:agents` round where the agents are served using only what `fcm-router setup` wrote: on a
 * throwaway HOME that already holds the user's own config file of each agent (Claude Code's
 * `settings.json`, Codex's `config.toml`, OpenCode's `opencode.json`, Qwen Code's `settings.json`,
 * Continue's `config.yaml`), the real CLI (`bin/fcm-router.js setup <agent> --yes`) points each agent at the
 * running daemon; the real agent (`claude -p`, `codex exec`, `opencode run`, `qwen -p`, `cn -p`) then runs
 * with that HOME and nothing else pointing at the router (see `bareEnv`); the router's `/api/history` must
 * show each request on that agent's face; `setup --undo` must put the user's files back byte for byte.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod/v3';
import { AGENT_REPLY } from '../router/test-support/agent-model.js';
import { agentBin, bareEnv, ROOT, runCommand, type Check, type Daemon } from './agent-runs.js';

/** The user's own files, there before setup: setup must keep every line of them and undo must restore them. */
const CLAUDE_SETTINGS = `{
  "theme": "dark",
  "permissions": { "allow": ["Bash(ls:*)"] },
  "env": { "MY_OWN_VARIABLE": "kept" }
}
`;
const CODEX_CONFIG = `# my own Codex settings
approval_policy = "never"

[tui]
notifications = true
`;
const OPENCODE_CONFIG = `{
  "$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled"
}
`;
const QWEN_SETTINGS = `{
  "$version": 4,
  "general": {
    "vimMode": true
  },
  "ui": {
    "hideTips": true
  }
}
`;
const CONTINUE_CONFIG = `# my own Continue config
name: My Config
version: 1.0.0
schema: v1
`;

interface SetupAgent {
  id: 'claude-code' | 'codex' | 'opencode' | 'qwen-code' | 'continue';
  name: string;
  /** The agent's config file under HOME, and what the user had in it. */
  file: string;
  original: string;
  /** The face its requests come in on, and a word its User-Agent holds. */
  api: 'messages' | 'responses' | 'chat';
  client: string;
  /** Its command, and variables it runs with (none of them names the router). */
  command: (home: string) => { bin: string; args: string[]; env?: NodeJS.ProcessEnv };
}

const AGENTS: readonly SetupAgent[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    file: '.claude/settings.json',
    original: CLAUDE_SETTINGS,
    api: 'messages',
    client: 'claude',
    command: () => ({ bin: agentBin('claude'), args: ['-p', 'Say hello.'] }),
  },
  {
    id: 'codex',
    name: 'Codex',
    file: '.codex/config.toml',
    original: CODEX_CONFIG,
    api: 'responses',
    client: 'codex',
    // Flags to run without a terminal; none of them names the router.
    command: () => ({
      bin: agentBin('codex'),
      args: ['exec', '--skip-git-repo-check', '--color', 'never', '-s', 'read-only', 'Say hello.'],
    }),
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    file: '.config/opencode/opencode.json',
    original: OPENCODE_CONFIG,
    api: 'chat',
    client: 'opencode',
    // It waits for its model catalogue from the internet on every start unless told not to fetch it.
    command: () => ({
      bin: agentBin('opencode'),
      args: ['run', 'Say hello.'],
      env: { OPENCODE_DISABLE_MODELS_FETCH: '1' },
    }),
  },
  {
    id: 'qwen-code',
    name: 'Qwen Code',
    file: '.qwen/settings.json',
    original: QWEN_SETTINGS,
    api: 'chat',
    client: 'qwencode',
    command: () => ({ bin: agentBin('qwen'), args: ['-p', 'Say hello.'] }),
  },
  {
    id: 'continue',
    name: 'Continue',
    file: '.continue/config.yaml',
    original: CONTINUE_CONFIG,
    api: 'chat',
    // Its requests carry the bundled OpenAI SDK's User-Agent, its class name minified: `ls/JS`.
    client: 'ls/js',
    command: () => ({ bin: agentBin('cn'), args: ['-p', 'Say hello.'] }),
  },
];

/** The part of `/api/history` this round reads. */
const historySchema = z.object({
  entries: z.array(
    z.object({
      api: z.string(),
      client: z.string().nullable(),
      outcome: z.string(),
      servedModel: z.string().nullable(),
    }),
  ),
});

async function history(base: string): Promise<z.infer<typeof historySchema>['entries']> {
  const res = await fetch(`${base}/api/history`);
  return historySchema.parse(await res.json()).entries;
}

/** `fcm-router setup <agent> --yes [--undo]` with HOME `home`, against the daemon of `stateDir`. */
function setup(agent: SetupAgent, home: string, stateDir: string, undo: boolean) {
  const args = [path.join(ROOT, 'bin/fcm-router.js'), 'setup', agent.id, '--yes', '--state-dir', stateDir];
  return runCommand(process.execPath, undo ? [...args, '--undo'] : args, bareEnv(home), home);
}

/** One agent: setup, a plain answer through the router seen in its history, then undo. */
async function roundFor(agent: SetupAgent, daemon: Daemon, home: string): Promise<Check[]> {
  const file = path.join(home, agent.file);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, agent.original);
  const wrote = await setup(agent, home, daemon.stateDir, false);
  const written = await readFile(file, 'utf8');
  const backup = await readFile(`${file}.fcm-router.bak`, 'utf8').catch(() => null);
  const before = (await history(daemon.base)).length;
  const { bin, args, env } = agent.command(home);
  const ran = await runCommand(bin, args, { ...bareEnv(home), ...env }, home);
  const after = await history(daemon.base);
  // Newest first: what came in while the agent ran.
  const seen = after.slice(0, after.length - before);
  const mine = seen.filter((entry) => entry.api === agent.api);
  const undone = await setup(agent, home, daemon.stateDir, true);
  const restored = await readFile(file, 'utf8');
  const ownLines = agent.original.split('\n').filter((line) => /\w/.test(line) && !line.includes('{'));
  return [
    {
      name: `${agent.name}: fcm-router setup wrote ${agent.file}, kept the user's own settings and a byte-for-byte backup`,
      ok:
        wrote.code === 0 &&
        backup === agent.original &&
        ownLines.every((line) => written.includes(line.trim())),
      detail: `${wrote.out}\n--- written:\n${written}`,
    },
    {
      name: `${agent.name}: answered through the router with only that HOME (${mine.length} ${agent.api} requests in /api/history, client ${[...new Set(mine.map((e) => e.client))].join(', ')})`,
      ok:
        ran.code === 0 &&
        ran.out.includes(AGENT_REPLY) &&
        mine.length > 0 &&
        mine.every((e) => e.outcome === 'served' && e.servedModel === 'good/coder') &&
        mine.every((e) => e.client?.toLowerCase().includes(agent.client) === true),
      detail: `${ran.out}\n--- history: ${JSON.stringify(seen)}`,
    },
    {
      name: `${agent.name}: fcm-router setup --undo restored ${agent.file} byte for byte`,
      ok: undone.code === 0 && restored === agent.original,
      detail: `${undone.out}\n--- restored:\n${restored}`,
    },
  ];
}

/** The agents in turn on one throwaway HOME under `dir`, against `daemon`. */
export async function runSetupRound(daemon: Daemon, dir: string): Promise<Check[]> {
  const home = path.join(dir, 'home');
  const checks: Check[] = [];
  for (const agent of AGENTS) checks.push(...(await roundFor(agent, daemon, home)));
  return checks;
}
