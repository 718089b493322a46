/**
 * `npm run test:agents`: the real Claude Code and Codex, headless, against the real daemon over fake
 * upstreams whose first model has a 4,000-token window (smaller than either agent's requests), whose next two
 * are black holes (an empty 200; an SSE error frame before content) and whose fourth is a scripted coding
 * model. Each agent gets a plain prompt and a shell-tool loop. The agents are installed on demand from npm
 * into `.agents/` (ignored). Agents retry quietly, so their exit status is not enough: every request the
 * router saw on the agent's endpoint must have been served; the small model refuses once and is skipped from
 * then on; and each conversation stays on the model that served its first turn.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HistoryEntry } from '../router/api-types.js';
import { AGENT_REPLY, agentModel } from '../router/test-support/agent-model.js';
import { startFakeUpstream, type FakeUpstream } from '../router/test-support/fake-upstream.js';
import { contextWindowOf } from '../router/test-support/fit-behaviours.js';
import { fakeProviders } from '../router/test-support/scenario.js';
import { byStreaming, empty200, errorPayload, sse } from '../router/test-support/upstream-behaviours.js';
import { errorFrame, roleFrame } from '../router/test-support/upstream-frames.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AGENTS_DIR = path.join(ROOT, '.agents');
const AGENTS = { claude: '@anthropic-ai/claude-code@2.1.332', codex: '@openai/codex@0.171.0' };
const AGENT_TIMEOUT_MS = 180_000;

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Installs the agents into `.agents/` unless the pinned versions are there already. */
function ensureAgents(): void {
  const installed = Object.entries(AGENTS).every(([bin, spec]) => {
    const pkg = path.join(AGENTS_DIR, 'node_modules', spec.slice(0, spec.lastIndexOf('@')), 'package.json');
    return (
      existsSync(path.join(AGENTS_DIR, 'node_modules', '.bin', bin)) &&
      readVersion(pkg) === spec.split('@').pop()
    );
  });
  if (installed) return;
  console.log(`== installing ${Object.values(AGENTS).join(' and ')} into .agents/`);
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
function run(
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

/** The daemon's history, read from its state file after it stopped (the stop flushes it). */
async function historyOf(stateDir: string): Promise<HistoryEntry[]> {
  const text = await readFile(path.join(stateDir, 'history.json'), 'utf8');
  return (JSON.parse(text) as { entries: HistoryEntry[] }).entries;
}

/** The model that refuses both agents' requests as too long for its 4,000-token window. */
const SMALL = 'small/ctx';

/** Skips and attempts of an entry, for a check's detail. */
function chainOf(entry: HistoryEntry): string {
  const chain = entry.attempts.map((attempt) => `${attempt.model}:${attempt.kind ?? 'ok'}`);
  const skips = entry.skipped.map((skip) => `skip ${skip.model}:${skip.reason}`);
  const sticky = entry.sticky === undefined ? '' : ` sticky ${entry.sticky}`;
  return `${entry.requestId} ${entry.outcome} ${entry.clientStatus} ${[...skips, ...chain].join(' ')}${sticky}`;
}

/**
 * What the history must show (`entries` oldest first): every agent request served by good/coder; the small
 * model tried once, refusing for size, and skipped for it from then on; each conversation's first turn
 * through both black holes, its later turns straight on its model (`sticky`).
 */
function historyChecks(entries: readonly HistoryEntry[]): Check[] {
  const onSmall = entries.filter((entry) => entry.attempts.some((attempt) => attempt.model === SMALL));
  const refusedOnce =
    onSmall.length === 1 && onSmall[0]?.attempts[0]?.kind === 'context_length' && onSmall[0] === entries[0];
  const notSkipped = entries
    .slice(1)
    .filter(
      (entry) => !entry.skipped.some((skip) => skip.model === SMALL && skip.reason === 'context_window'),
    );
  const checks: Check[] = [
    {
      name: `router history: ${SMALL} refused the first request for its size, and every later one skipped it`,
      ok: refusedOnce && notSkipped.length === 0,
      detail: [...new Set([...onSmall, ...notSkipped])].map(chainOf).join('\n'),
    },
  ];
  for (const api of ['messages', 'responses'] as const) {
    const seen = entries.filter((entry) => entry.api === api);
    const sessions = new Set<string>();
    const wrong = seen.filter((entry) => {
      if (entry.outcome !== 'served' || entry.servedModel !== 'good/coder') return true;
      const models = entry.attempts.map((attempt) => attempt.model).filter((model) => model !== SMALL);
      const session = entry.session ?? entry.requestId;
      const first = !sessions.has(session);
      sessions.add(session);
      if (first) return models.join(' ') !== 'hole/empty hole/errframe good/coder';
      return entry.sticky !== 'good/coder' || models.join(' ') !== 'good/coder';
    });
    checks.push({
      name: `router history: all ${seen.length} ${api} requests (${sessions.size} conversations) served by good/coder, each conversation's first after both black holes, its later turns on good/coder directly`,
      ok: seen.length > 0 && wrong.length === 0,
      detail: wrong.map(chainOf).join('\n'),
    });
  }
  return checks;
}

async function main(): Promise<number> {
  ensureAgents();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'fcm-agents-'));
  const upstream: FakeUpstream = await startFakeUpstream();
  // The black holes answer streams and JSON alike with nothing useful.
  upstream.always('hole/empty', byStreaming(sse([roleFrame()]), empty200()));
  upstream.always(
    'hole/errframe',
    byStreaming(sse([roleFrame(), errorFrame()], { done: false }), errorPayload()),
  );
  upstream.always('good/coder', agentModel());
  upstream.always(SMALL, contextWindowOf(4000, agentModel()));
  const stateDir = path.join(scratch, 'state');
  const configPath = path.join(scratch, 'config.json');
  const config = {
    providers: fakeProviders(upstream, { small: ['ctx'], hole: ['empty', 'errframe'], good: ['coder'] }),
    sets: { main: [SMALL, 'hole/empty', 'hole/errframe', 'good/coder'] },
    activeSet: 'main',
    // The black holes stay CLOSED through every run, so each request meets both of them first.
    router: { breaker: { failureThreshold: 20, degradedRatio: 1 } },
  };
  await writeFile(configPath, JSON.stringify(config), { mode: 0o600 });
  const port = await freePort();
  const daemon = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin/fcm-router.js'),
      'daemon',
      '--port',
      String(port),
      '--state-dir',
      stateDir,
      '--config',
      configPath,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    daemon.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('listening on')) resolve();
    });
    daemon.once('exit', () => reject(new Error('the daemon exited before it listened')));
  });
  const base = `http://127.0.0.1:${port}`;
  const nonce = Math.random().toString(36).slice(2, 10);
  const bin = (name: string): string => path.join(AGENTS_DIR, 'node_modules', '.bin', name);
  const checks: Check[] = [];
  const work = path.join(scratch, 'work');
  await mkdir(work, { recursive: true });

  const claudeEnv = {
    ...process.env,
    HOME: path.join(scratch, 'home-claude'),
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: 'any',
    ANTHROPIC_MODEL: 'fcm',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  await mkdir(claudeEnv.HOME, { recursive: true });
  const claudePlain = await run(bin('claude'), ['-p', 'Say hello.'], claudeEnv, work);
  checks.push({
    name: 'Claude Code: a plain answer',
    ok: claudePlain.code === 0 && claudePlain.out.includes(AGENT_REPLY),
    detail: claudePlain.out,
  });
  const claudeTool = await run(
    bin('claude'),
    ['-p', `run: echo fcm-agent-claude-${nonce}`, '--allowedTools', 'Bash'],
    claudeEnv,
    work,
  );
  checks.push({
    name: 'Claude Code: a Bash tool loop',
    ok: claudeTool.code === 0 && claudeTool.out.includes(`The command printed: fcm-agent-claude-${nonce}`),
    detail: claudeTool.out,
  });

  const codexHome = path.join(scratch, 'codex-home');
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
  const codexEnv = {
    ...process.env,
    HOME: path.join(scratch, 'home-codex'),
    CODEX_HOME: codexHome,
    FCM_ROUTER_KEY: 'any',
  };
  const codexArgs = (prompt: string): string[] => [
    'exec',
    '--skip-git-repo-check',
    '--color',
    'never',
    '-s',
    'read-only',
    prompt,
  ];
  const codexPlain = await run(bin('codex'), codexArgs('Say hello.'), codexEnv, work);
  checks.push({
    name: 'Codex: a plain answer',
    ok: codexPlain.code === 0 && codexPlain.out.includes(AGENT_REPLY),
    detail: codexPlain.out,
  });
  const codexTool = await run(bin('codex'), codexArgs(`run: echo fcm-agent-codex-${nonce}`), codexEnv, work);
  checks.push({
    name: 'Codex: an exec_command tool loop',
    ok: codexTool.code === 0 && codexTool.out.includes(`The command printed: fcm-agent-codex-${nonce}`),
    detail: codexTool.out,
  });

  daemon.kill('SIGTERM');
  await new Promise((resolve) => daemon.once('exit', resolve));
  await upstream.close();
  const entries = (await historyOf(stateDir)).sort((a, b) => a.at - b.at);
  checks.push(...historyChecks(entries));
  await rm(scratch, { recursive: true, force: true });

  for (const check of checks) {
    console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}`);
    if (!check.ok)
      console.log(
        check.detail
          .split('\n')
          .slice(-40)
          .map((line) => `     ${line}`)
          .join('\n'),
      );
  }
  const failed = checks.filter((check) => !check.ok).length;
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
