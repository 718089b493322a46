/**
 * The realistic daemon setup the benchmark measures: the whole catalogue loaded (placeholder keys for
 * every catalogue provider, so all of them resolve and the default set is large), a 20-model active set
 * over four custom providers pointing at the fast fake upstream, and two extra sets for the failover and
 * open-stream workloads. The placeholder keys never leave the machine: no catalogue model is in a set
 * the benchmark routes to.
 */
import type { ConfigInput } from '../router/config/schema.js';
import { CATALOGUE_PROVIDERS } from '../router/catalogue/providers.js';

export const BENCH_SET = 'bench';
export const FAILOVER_SET = 'failover';
export const OPEN_SET = 'open';
/** The set whose provider answers only after `SLOW_UPSTREAM_MS`, as a real one does. */
export const SLOW_SET = 'slow';
/** How long the slow provider takes over a non-stream answer. */
export const SLOW_UPSTREAM_MS = 1000;
/** The slow provider's path on the fast fake upstream, for the direct and relay targets. */
export const SLOW_PATH = `/slow-${SLOW_UPSTREAM_MS}/v1/chat/completions`;
/** Model id the direct and relay targets ask for (any id works against the fake upstream). */
export const DIRECT_MODEL = 'm1';

const CUSTOM = ['bench-a', 'bench-b', 'bench-c', 'bench-d'];
const MODELS_PER_PROVIDER = 5;

/**
 * Providers left without a key for the ranking measure, so the default set is the catalogue of
 * 222 models over 20 providers.
 */
export const RANKING_KEYLESS = ['cloudflare', 'orcarouter', 'vercel-gateway', 'cerebras'];

/** Placeholder keys (and URL parameters) for every catalogue provider but the `keyless` ones. */
export function catalogueEnv(keyless: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const provider of CATALOGUE_PROVIDERS) {
    if (keyless.includes(provider.id)) continue;
    const name = provider.keyEnv[0];
    if (name) env[name] = `bench-placeholder-${provider.id}`;
    for (const param of Object.values(provider.urlParams ?? {})) env[param] = 'bench-account';
  }
  return env;
}

/** The config of the benchmarked daemon; `holdMs` is how long the open-stream upstream keeps a stream. */
export function benchConfig(upstream: string, holdMs: number): ConfigInput {
  const providers: NonNullable<ConfigInput['providers']> = {};
  const bench: string[] = [];
  for (const id of CUSTOM) {
    const models = Array.from({ length: MODELS_PER_PROVIDER }, (_, i) => `m${bench.length + i + 1}`);
    providers[id] = { baseUrl: `${upstream}/v1`, models };
    bench.push(...models.map((model) => `${id}/${model}`));
  }
  providers['bench-flaky'] = { baseUrl: `${upstream}/flaky/v1`, models: ['m0'] };
  providers['bench-open'] = { baseUrl: `${upstream}/open-${holdMs}/v1`, models: ['m0'] };
  const slow = Array.from({ length: MODELS_PER_PROVIDER }, (_, i) => `m${i + 1}`);
  providers['bench-slow'] = { baseUrl: `${upstream}/slow-${SLOW_UPSTREAM_MS}/v1`, models: slow };
  return {
    providers,
    sets: {
      [BENCH_SET]: bench,
      [FAILOVER_SET]: ['bench-flaky/m0', ...bench.slice(0, 19)],
      [OPEN_SET]: ['bench-open/m0', ...bench.slice(0, 19)],
      [SLOW_SET]: slow.map((model) => `bench-slow/${model}`),
    },
    activeSet: BENCH_SET,
  };
}
