/**
 * The moving parts of `npm run test:agents`: the pinned agents installed into `.agents/`, the real daemon
 * started over a config, and Claude Code's and Codex's runs (a plain answer and a shell-tool loop each; the
 * chat-completions agents' are in scripts/chat-agents.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HistoryEntry } from '../router/api-types.js';
import { AGENT_REPLY } from '../router/test-support/agent-model.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AGENTS_DIR = path.join(ROOT, '.agents');
/** Each agent's executable and its pinned package. */
const AGENTS = {
  claude: '@anthropic-ai/claude-code@2.1.332',
  codex: '@openai/codex@0.171.0',
  opencode: 'opencode-ai@1.18.33',
  qwen: '@qwen-code/qwen-code@0.24.4',
  cn: '@continuedev/cli@1.5.47',
};
const AGENT_TIMEOUT_MS = 180_000;

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Installs the agents into `.agents/` unless the pinned versions are there already. */
export function ensureAgents(): void {
  const installed = Object.entries(AGENTS).every(([bin, spec]) => {
    const pkg = path.join(AGENTS_DIR, 'node_modules', spec.slice(0, spec.lastIndexOf('@')), 'package.json');
    return (
      existsSync(path.join(AGENTS_DIR, 'node_modules', '.bin', bin)) &&
      readVersion(pkg) === spec.split('@').pop()
    );
  });
  if (installed) return;
  console.log(`== installing ${Object.values(AGENTS).join(', ')} into .agents/`);
  const result = spawnSync(
    'npm',
    ['install', '--prefix', AGENTS_DIR, '--no-audit', '--no-fund', ...Object.values(AGENTS)],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('could not install the agents from npm');
}

function readVersion(file: string): string | null {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a command with a time limit; resolves with its exit status and output. */
export function runCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), AGENT_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** A running daemon: its URL, and its stop, which hands back its history (oldest first). */
export interface Daemon {
  base: string;
  /** Its state folder: where `fcm-router setup --state-dir` finds it. */
  stateDir: string;
  stop(): Promise<HistoryEntry[]>;
}

/** Starts the real daemon over `config`, its state in `<dir>/state`. */
export async function startDaemon(config: object, dir: string): Promise<Daemon> {
  const stateDir = path.join(dir, 'state');
  const configPath = path.join(dir, 'config.json');
  await mkdir(dir, { recursive: true });
  await writeFile(configPath, JSON.stringify(config), { mode: 0o600 });
  const port = await freePort();
  const args = ['daemon', '--port', String(port), '--state-dir', stateDir, '--config', configPath];
  const daemon = spawn(process.execPath, [path.join(ROOT, 'bin/fcm-router.js'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    daemon.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('listening on')) resolve();
    });
    daemon.once('exit', () => reject(new Error('the daemon exited before it listened')));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    stateDir,
    stop: async () => {
      daemon.kill('SIGTERM');
      await new Promise((resolve) => daemon.once('exit', resolve));
      // The stop flushed the history to its state file; a daemon that got no request wrote none.
      const text = await readFile(path.join(stateDir, 'history.json'), 'utf8').catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '{"entries":[]}';
        throw error;
      });
      return (JSON.parse(text) as { entries: HistoryEntry[] }).entries.sort((a, b) => a.at - b.at);
    },
  };
}

/**
 * This shell's environment without anything that could point an agent at a router, log it in or move its
 * files out of `home` (the XDG folders, where OpenCode keeps its config and data).
 */
export function bareEnv(home: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = Object.entries(env).filter(
    ([key]) => !/^(ANTHROPIC|CLAUDE|OPENAI|CODEX|OPENCODE|QWEN|CONTINUE|XDG)_/.test(key),
  );
  return { ...Object.fromEntries(kept), HOME: home };
}

/** The installed agent's executable. */
export const agentBin = (name: string): string => path.join(AGENTS_DIR, 'node_modules', '.bin', name);

/** Claude Code, headless, against the daemon at `base`: a plain answer and a Bash tool loop. */
async function runClaude(base: string, dir: string, nonce: string, label: string): Promise<Check[]> {
  const env = {
    ...process.env,
    HOME: path.join(dir, 'home-claude'),
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: 'any',
    ANTHROPIC_MODEL: 'fcm',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  await mkdir(env.HOME, { recursive: true });
  const work = path.join(dir, 'work');
  await mkdir(work, { recursive: true });
  const plain = await runCommand(agentBin('claude'), ['-p', 'Say hello.'], env, work);
  const printed = `The command printed: fcm-agent-claude-${nonce}`;
  const tool = await runCommand(
    agentBin('claude'),
    ['-p', `run: echo fcm-agent-claude-${nonce}`, '--allowedTools', 'Bash'],
    env,
    work,
  );
  return [
    {
      name: `Claude Code${label}: a plain answer`,
      ok: plain.code === 0 && plain.out.includes(AGENT_REPLY),
      detail: plain.out,
    },
    {
      name: `Claude Code${label}: a Bash tool loop`,
      ok: tool.code === 0 && tool.out.includes(printed),
      detail: tool.out,
    },
  ];
}

/** Codex, headless, against the daemon at `base`: a plain answer and an exec_command tool loop. */
async function runCodex(base: string, dir: string, nonce: string, label: string): Promise<Check[]> {
  const codexHome = path.join(dir, 'codex-home');
  await mkdir(codexHome, { recursive: true });
  await writeFile(
    path.join(codexHome, 'config.toml'),
    [
      'model = "fcm"',
      'model_provider = "fcm"',
      '[model_providers.fcm]',
      'name = "fcm-router"',
      `base_url = "${base}/v1"`,
      'env_key = "FCM_ROUTER_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
  const env = {
    ...process.env,
    HOME: path.join(dir, 'home-codex'),
    CODEX_HOME: codexHome,
    FCM_ROUTER_KEY: 'any',
  };
  const work = path.join(dir, 'work');
  await mkdir(work, { recursive: true });
  const args = (prompt: string): string[] => [
    'exec',
    '--skip-git-repo-check',
    '--color',
    'never',
    '-s',
    'read-only',
    prompt,
  ];
  const plain = await runCommand(agentBin('codex'), args('Say hello.'), env, work);
  const tool = await runCommand(agentBin('codex'), args(`run: echo fcm-agent-codex-${nonce}`), env, work);
  const printed = `The command printed: fcm-agent-codex-${nonce}`;
  return [
    {
      name: `Codex${label}: a plain answer`,
      ok: plain.code === 0 && plain.out.includes(AGENT_REPLY),
      detail: plain.out,
    },
    {
      name: `Codex${label}: an exec_command tool loop`,
      ok: tool.code === 0 && tool.out.includes(printed),
      detail: tool.out,
    },
  ];
}

/** Both agents against the daemon at `base`, each at home in `dir`; `label` names the round in the checks. */
export async function runAgents(base: string, dir: string, label: string): Promise<Check[]> {
  const nonce = Math.random().toString(36).slice(2, 10);
  return [...(await runClaude(base, dir, nonce, label)), ...(await runCodex(base, dir, nonce, label))];
}
