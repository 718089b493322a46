import type { ConfigInput } from '../../../router/api-types.js';

/** The router's default config as `GET /api/config` reports it, for component and form tests. */
export const DEFAULT_CONFIG: ConfigInput = {
  providers: {},
  activeSet: 'default',
  router: {
    failover: {
      maxAttempts: 4,
      requestTimeoutMs: 15000,
      bodyReadTimeoutMs: 30000,
      streamIdleTimeoutMs: 8000,
      totalBudgetMs: 120000,
      contentValidation: 'strict',
      holdBufferBytes: 262144,
      lastResortModel: null,
      hedgeAfterMs: null,
      continueStreams: true,
    },
    breaker: {
      failureThreshold: 3,
      degradedRatio: 0.6,
      initialCooldownMs: 30000,
      maxCooldownMs: 300000,
      backoffMultiplier: 2,
    },
  },
};
