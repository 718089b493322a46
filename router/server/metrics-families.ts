import {
  API_FACES,
  REQUEST_OUTCOMES,
  REQUEST_SOURCES,
  type BreakerStateName,
  type ModelStateView,
} from '../api-types.js';
import type { KeyBudgetUse } from './metrics-budgets.js';
import type { MetricFamily, MetricSample } from './metrics-text.js';
import type { RequestTally } from './request-tally.js';

/** What one scrape of `/metrics` shows. */
export interface MetricsSources {
  tally: RequestTally;
  /** The models of `/api/state` (the sets' and the pinned ones): what the breaker metric needs of them. */
  models: readonly BreakerOf[];
  budgets: readonly KeyBudgetUse[];
  inFlight: number;
  /** When this router started (epoch ms). */
  startedAt: number;
}

/** A model's breaker, as `/api/state` lists it. */
export type BreakerOf = Pick<ModelStateView, 'key' | 'provider' | 'state'>;

const BREAKER_STATES: readonly BreakerStateName[] = ['CLOSED', 'DEGRADED', 'OPEN', 'HALF_OPEN'];

/** One 0/1 sample per breaker state per model: exactly one of a model's four is 1. */
function breakerSamples(models: readonly BreakerOf[]): MetricSample[] {
  return models.flatMap((model) =>
    BREAKER_STATES.map((state) => ({
      labels: { model: model.key, provider: model.provider, state },
      value: model.state === state ? 1 : 0,
    })),
  );
}

/** Each key's use in the day and the sliding minute, requests and tokens. */
function budgetUseSamples(budgets: readonly KeyBudgetUse[]): MetricSample[] {
  return budgets.flatMap((row) => {
    const labels = { provider: row.provider, model: row.model, key: row.key };
    return [
      { labels: { ...labels, window: 'day', unit: 'requests' }, value: row.dayRequests },
      { labels: { ...labels, window: 'day', unit: 'tokens' }, value: row.dayTokens },
      { labels: { ...labels, window: 'minute', unit: 'requests' }, value: row.minuteRequests },
      { labels: { ...labels, window: 'minute', unit: 'tokens' }, value: row.minuteTokens },
    ];
  });
}

/** Each model's limits, once per model (every key of a provider has the same). */
function budgetLimitSamples(budgets: readonly KeyBudgetUse[]): MetricSample[] {
  const seen = new Set<string>();
  const samples: MetricSample[] = [];
  for (const row of budgets) {
    if (seen.has(row.model)) continue;
    seen.add(row.model);
    const { rpm, rpd, tpm, tpd } = row.limits;
    const base = { provider: row.provider, model: row.model };
    const limits = [
      ['day', 'requests', rpd],
      ['day', 'tokens', tpd],
      ['minute', 'requests', rpm],
      ['minute', 'tokens', tpm],
    ] as const;
    for (const [window, unit, value] of limits)
      if (value !== null) samples.push({ labels: { ...base, window, unit }, value });
  }
  return samples;
}

const counter = (name: string, help: string, samples: MetricSample[]): MetricFamily => ({
  name,
  help,
  type: 'counter',
  samples,
});

const gauge = (name: string, help: string, samples: MetricSample[]): MetricFamily => ({
  name,
  help,
  type: 'gauge',
  samples,
});

/** The families `/metrics` serves, in a fixed order. */
export function metricFamilies(src: MetricsSources): MetricFamily[] {
  return [
    counter(
      'fcm_router_requests_total',
      `Finished requests since this router started, by outcome (${REQUEST_OUTCOMES.join(', ')}), face (${API_FACES.join(', ')}) and source (${REQUEST_SOURCES.join(', ')}).`,
      src.tally.requests(),
    ),
    counter(
      'fcm_router_attempts_total',
      'Upstream attempts since this router started, by failure kind; kind="none" is an attempt that served.',
      src.tally.attempts(),
    ),
    counter(
      'fcm_router_tokens_total',
      'Tokens served since this router started, by provider and type (prompt, completion), as the upstreams reported them or estimated.',
      src.tally.tokens(),
    ),
    gauge('fcm_router_requests_in_flight', 'Requests being routed now.', [
      { labels: {}, value: src.inFlight },
    ]),
    gauge(
      'fcm_router_start_time_seconds',
      'When this router started (Unix time); the counters start at 0 then.',
      [{ labels: {}, value: src.startedAt / 1000 }],
    ),
    gauge(
      'fcm_router_breaker_state',
      'Circuit breaker state per model: 1 for the state it is in (CLOSED, DEGRADED, OPEN, HALF_OPEN), 0 for the other three.',
      breakerSamples(src.models),
    ),
    gauge(
      'fcm_router_budget_used',
      "Free-tier budget used per key (by fingerprint) and model, in the provider's day and the sliding minute: every request sent on the key counts, a failed one too; models of a provider whose limits are per key show that key's shared counter.",
      budgetUseSamples(src.budgets),
    ),
    gauge(
      'fcm_router_budget_limit',
      'Free-tier limit per model, in the day and the minute (absent: no such limit).',
      budgetLimitSamples(src.budgets),
    ),
  ];
}
