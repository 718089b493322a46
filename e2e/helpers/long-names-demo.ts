/**
 * A daemon whose every view has content under the catalogue's longest names: a set of long-named models
 * over a fake upstream, requests served, failed over and failed (an empty answer, a 429, 500s that trip a
 * breaker, a refused key), a week of usage before today, day budgets on two keys, and a forced tool call
 * ignored.
 */
import { keyFingerprint } from '../../router/state/key-fingerprint.js';
import { STATE_FILE_VERSION } from '../../router/state/state-book.js';
import { localDayKey } from '../../router/state/daily-counters.js';
import { chat } from './chat.js';
import { startDaemon, type Daemon } from './daemon.js';
import { FakeUpstream } from './fake-upstream.js';
import { send } from './send.js';

/** Model ids as the providers name them (the upstream is scripted by these). */
export const NEMOTRON = 'nvidia/nemotron-3-nano-omni-30b-a3b-reasoning';
const OR_NEMOTRON = `${NEMOTRON}:free`;
const MISTRAL_SMALL = '@cf/mistralai/mistral-small-3.1-24b-instruct';
const LING = 'inclusionai/ling-3.0-flash-fin-free';
const QWEN_DISTILL = 'deepseek-ai/DeepSeek-R1-0528-Qwen3-8B';

/** The set's models by their router keys, the longest first. */
export const LONG_KEYS = {
  openrouter: `openrouter/${OR_NEMOTRON}`,
  cloudflare: `cloudflare/${MISTRAL_SMALL}`,
  nvidia: `nvidia/${NEMOTRON}`,
  vercel: `vercel-gateway/${LING}`,
  siliconflow: `siliconflow/${QWEN_DISTILL}`,
} as const;

const NVIDIA_KEYS = ['sk-e2e-nvidia-first', 'sk-e2e-nvidia-second'];

/** Six days of usage before today, so the chart spans a week. */
function pastUsage(now: number): object {
  const nvidia = keyFingerprint(NVIDIA_KEYS[0] ?? null);
  const days: Record<string, Record<string, object>> = {};
  for (let back = 1; back <= 6; back += 1) {
    const requests = 5 + ((back * 7) % 11);
    const tally = (n: number) => ({
      requests: n,
      promptTokens: n * 900,
      completionTokens: n * 150,
      estimatedTokens: 0,
    });
    days[localDayKey(now - back * 86_400_000)] = {
      [`${LONG_KEYS.nvidia} @${nvidia}`]: tally(requests),
      [`${LONG_KEYS.vercel} @${keyFingerprint('sk-e2e-vercel')}`]: tally(back % 3),
    };
  }
  return { version: STATE_FILE_VERSION, savedAt: now, days };
}

/** The longest-named model ignored a forced tool call just now: its row says why it is asked last for one. */
function lessons(now: number): object {
  return {
    version: STATE_FILE_VERSION,
    savedAt: now,
    models: { [LONG_KEYS.nvidia]: { ignoredForcedAt: now } },
  };
}

/** Starts the upstream and the daemon and sends the traffic; the caller stops both. */
export async function startLongNamesDemo(): Promise<{ upstream: FakeUpstream; daemon: Daemon }> {
  const upstream = await new FakeUpstream().start();
  const base = { baseUrl: upstream.baseUrl };
  const daemon = await startDaemon(
    {
      providers: {
        nvidia: {
          ...base,
          apiKey: NVIDIA_KEYS[0],
          apiKeys: NVIDIA_KEYS.slice(1),
          limits: { rpd: 40, tpd: 60_000 },
        },
        openrouter: { ...base, apiKey: 'sk-e2e-openrouter' },
        cloudflare: { ...base, apiKey: 'sk-e2e-cloudflare' },
        'vercel-gateway': { ...base, apiKey: 'sk-e2e-vercel', limits: { rpd: 100 } },
        siliconflow: { ...base, apiKey: 'sk-e2e-siliconflow' },
      },
      sets: {
        default: Object.values(LONG_KEYS),
        [`reasoning-${NEMOTRON.replaceAll('/', '-')}`]: [LONG_KEYS.nvidia, LONG_KEYS.siliconflow],
      },
      router: { breaker: { failureThreshold: 3, initialCooldownMs: 60_000 } },
    },
    { stateFiles: { 'usage.json': pastUsage(Date.now()), 'fit.json': lessons(Date.now()) } },
  );
  await traffic(upstream, daemon.url);
  return { upstream, daemon };
}

/** Served, failed-over and failed requests from several agents, on both faces' streaming and not. */
async function traffic(upstream: FakeUpstream, url: string): Promise<void> {
  upstream.script(OR_NEMOTRON, { rateLimitSeconds: 240 });
  await chat(url, 'fcm', 'claude-cli/2.1.332');
  upstream.script(MISTRAL_SMALL, 'error-500', 'error-500', 'error-500');
  for (let i = 0; i < 3; i++) await chat(url, `fcm:@${LONG_KEYS.cloudflare}`, 'cline/3.2.0');
  upstream.script(QWEN_DISTILL, 'unauthorized');
  await chat(url, `fcm:@${LONG_KEYS.siliconflow}`, 'continue/1.1.0');
  for (let i = 0; i < 8; i++) {
    if (i % 3 === 1) upstream.script(NEMOTRON, 'empty-200');
    await send(url, { stream: i % 2 === 0, agent: i % 2 ? 'opencode/1.18.33' : 'codex_exec/0.171.0' });
  }
  upstream.script(NEMOTRON, 'empty-200');
  upstream.script(LING, 'error-500');
  await chat(url, 'fcm', 'opencode/1.18.33');
  await send(url, { model: `fcm:@${LONG_KEYS.vercel}`, headers: { 'x-fcm-source': 'test' } });
}
