/**
 * A whole test setup in one call: a fake upstream serving the given providers and a router over it, on a
 * `TestClock` (deadlines fire only when the test advances it), with short timeouts and long breaker
 * cooldowns.
 */
import type { ConfigInput } from '../config/schema.js';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { startHarness, type RouterHarness } from './router-harness.js';
import type { TestClock } from './test-clock.js';

type RouterSettings = NonNullable<ConfigInput['router']>;

export interface ScenarioOptions {
  /** Provider id → model ids, all served by the fake upstream. */
  providers: Record<string, readonly string[]>;
  /** Provider id → key. @default `sk-test-<id>` */
  keys?: Record<string, string>;
  /** @default one set `main` holding every model, in the order given */
  sets?: Record<string, string[]>;
  activeSet?: string;
  failover?: RouterSettings['failover'];
  breaker?: RouterSettings['breaker'];
  server?: RouterSettings['server'];
  /** More settings of a fake provider (its `modelFit`, say), over what the scenario gives it. */
  providerSettings?: NonNullable<ConfigInput['providers']>;
  /** Extra provider entries (e.g. one whose base URL refuses connections). */
  extraProviders?: NonNullable<ConfigInput['providers']>;
  ranking?: RouterSettings['ranking'];
  /** Provider id → its probe settings. */
  probes?: Record<string, NonNullable<NonNullable<ConfigInput['providers']>[string]['probe']>>;
  /** The router's random numbers (exploration). @default Math.random */
  random?: () => number;
  /** The router's time. @default a fresh `TestClock` */
  clock?: TestClock;
  /** Whether the machine counts as online for background probes. @default always */
  isOnline?: () => boolean;
  /** A state dir prepared before the router starts (`<dir>/state`); removed afterwards. */
  dir?: string;
  /** The router's environment (HOME for the agents' files, say). @default the harness's */
  env?: Record<string, string | undefined>;
}

/** Providers config for fake providers: each id gets its base URL on `upstream`, a key and its models. */
export function fakeProviders(
  upstream: FakeUpstream,
  models: Record<string, readonly string[]>,
  keys: Record<string, string> = {},
): NonNullable<ConfigInput['providers']> {
  return Object.fromEntries(
    Object.entries(models).map(([id, ids]) => [
      id,
      { baseUrl: upstream.baseUrl(id), apiKey: keys[id] ?? `sk-test-${id}`, models: [...ids] },
    ]),
  );
}

/**
 * The config of a scenario: short timeouts and long breaker cooldowns (a test that moves the clock past a
 * cooldown with no request in flight fires no deadline), with the options' overrides.
 */
export function scenarioConfig(upstream: FakeUpstream, options: ScenarioOptions): ConfigInput {
  const keys = Object.entries(options.providers).flatMap(([id, ids]) => ids.map((model) => `${id}/${model}`));
  const sets = options.sets ?? { main: keys };
  const providers = fakeProviders(upstream, options.providers, options.keys);
  for (const [id, settings] of Object.entries(options.providerSettings ?? {})) {
    const provider = providers[id];
    if (provider) providers[id] = { ...provider, ...settings };
  }
  for (const [id, probe] of Object.entries(options.probes ?? {})) {
    const provider = providers[id];
    if (provider) providers[id] = { ...provider, probe };
  }
  return {
    providers: { ...providers, ...options.extraProviders },
    sets,
    activeSet: options.activeSet ?? Object.keys(sets)[0] ?? 'main',
    router: {
      failover: {
        requestTimeoutMs: 2000,
        bodyReadTimeoutMs: 2000,
        streamIdleTimeoutMs: 2000,
        totalBudgetMs: 10_000,
        ...options.failover,
      },
      breaker: { initialCooldownMs: 60_000, maxCooldownMs: 600_000, ...options.breaker },
      ...(options.ranking ? { ranking: options.ranking } : {}),
      ...(options.server ? { server: options.server } : {}),
    },
  };
}

export interface Scenario {
  router: RouterHarness;
  upstream: FakeUpstream;
}

/** Runs `run` with a fresh fake upstream and a router over it, always closing both. */
export async function withScenario(
  options: ScenarioOptions,
  run: (scenario: Scenario) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  let router: RouterHarness | null = null;
  try {
    router = await startHarness({
      config: scenarioConfig(upstream, options),
      ...(options.random ? { random: options.random } : {}),
      ...(options.isOnline ? { isOnline: options.isOnline } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.dir ? { dir: options.dir } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    await run({ router, upstream });
  } finally {
    await router?.close();
    await upstream.close();
  }
}
