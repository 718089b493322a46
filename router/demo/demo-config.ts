import type { Catalogue } from '../config/resolve-config.js';
import type { ConfigInput } from '../config/schema.js';
import { DEMO_PROVIDERS } from './demo-upstream.js';

const NAMES: Readonly<Record<string, string>> = {
  'demo-flaky': 'Demo: flaky (empty 200s, error payloads)',
  'demo-limited': 'Demo: rate-limited (429)',
  'demo-slow': 'Demo: slow (never answers)',
  'demo-fast': 'Demo: fast (real answers)',
  'demo-sometimes': 'Demo: sometimes (every third request 503)',
};

/**
 * The demo routes its simulated providers alone: no provider of the shipped catalogue (some need no key,
 * and a key in the environment would enable others), so no request of the demo leaves the machine.
 */
export const DEMO_CATALOGUE: Catalogue = { providers: [], models: [] };

/** Every simulated model's context window. */
export const DEMO_WINDOW = 131_072;

/**
 * The config demo mode runs with: the simulated providers of {@link DEMO_PROVIDERS} as custom providers,
 * and a `demo` set ordered so the first request visibly fails over (empty 200, 429, error payload) before
 * `demo-fast/coder` serves it. The short request timeout lets the hanging model fail over quickly.
 *
 * @param upstreamUrl the `url` of a running demo upstream, e.g. `http://127.0.0.1:41234`
 */
export function demoConfig(upstreamUrl: string): ConfigInput {
  const base = upstreamUrl.replace(/\/+$/, '');
  const providers = Object.fromEntries(
    Object.entries(DEMO_PROVIDERS).map(([id, models]) => [
      id,
      {
        name: NAMES[id] ?? id,
        baseUrl: `${base}/${id}/v1`,
        apiKey: 'demo-key',
        models: Object.keys(models),
        // A window like a free model's, so the set has one to give agents (`fcm-router setup`, the snippets).
        modelFit: Object.fromEntries(
          Object.keys(models).map((model) => [model, { contextWindow: DEMO_WINDOW }]),
        ),
      },
    ]),
  );
  return {
    providers,
    sets: {
      demo: [
        'demo-flaky/empty-200',
        'demo-limited/rate-limited',
        'demo-flaky/sse-error',
        'demo-fast/coder',
        'demo-sometimes/coin',
        'demo-fast/reasoner',
        'demo-slow/hang',
      ],
      // Every other stream of `cut-short` is cut half-way, and the next model finishes it.
      reasoning: [
        'demo-flaky/sse-error',
        'demo-slow/hang',
        'demo-sometimes/cut-short',
        'demo-fast/reasoner',
        'demo-fast/coder',
      ],
    },
    activeSet: 'demo',
    router: { failover: { requestTimeoutMs: 3000 } },
  };
}
