import type { Clock } from '../router/index.js';
import type { HealthAlert } from './health-alerts.js';

/** A desktop notification to show. Never holds request content or keys. */
export interface Notice {
  title: string;
  body: string;
}

export interface ThrottleOptions {
  clock: Clock;
  /** The least time between two notifications about the same model. @default 60_000 */
  minModelIntervalMs?: number;
  /** Between two "key refused" notifications for one provider. @default 600_000 */
  keyIntervalMs?: number;
  /** Between two "nothing routable" notifications. @default 300_000 */
  nothingRoutableIntervalMs?: number;
  /** More alerts than this in one batch become one summary. @default 2 */
  maxSeparate?: number;
}

/**
 * Keeps notifications rare: at most one per model per cooldown (never more often than
 * `minModelIntervalMs`), one per provider key and per "nothing routable" spell, and one summary when many
 * arrive together. Alerts are offered as they come and flushed as one batch.
 */
export class NotificationThrottle {
  readonly #clock: Clock;
  readonly #options: Required<Omit<ThrottleOptions, 'clock'>>;
  readonly #lastShown = new Map<string, number>();
  #pending: HealthAlert[] = [];

  constructor(options: ThrottleOptions) {
    this.#clock = options.clock;
    this.#options = {
      minModelIntervalMs: options.minModelIntervalMs ?? 60_000,
      keyIntervalMs: options.keyIntervalMs ?? 600_000,
      nothingRoutableIntervalMs: options.nothingRoutableIntervalMs ?? 300_000,
      maxSeparate: options.maxSeparate ?? 2,
    };
  }

  /** Queues alerts for the next `flush`. */
  offer(alerts: readonly HealthAlert[]): void {
    this.#pending.push(...alerts);
  }

  get hasPending(): boolean {
    return this.#pending.length > 0;
  }

  /** The notifications to show now for everything offered since the last flush. */
  flush(): Notice[] {
    const now = this.#clock();
    const batch = dedupe(this.#pending);
    this.#pending = [];
    const allowed = batch.filter((alert) => {
      const key = throttleKey(alert);
      const last = this.#lastShown.get(key);
      if (last !== undefined && now - last < this.#intervalFor(alert)) return false;
      this.#lastShown.set(key, now);
      return true;
    });
    if (allowed.length === 0) return [];
    return allowed.length > this.#options.maxSeparate ? [summarise(allowed)] : allowed.map(describe);
  }

  #intervalFor(alert: HealthAlert): number {
    switch (alert.kind) {
      case 'model-open':
        return Math.max(alert.cooldownMs, this.#options.minModelIntervalMs);
      case 'key-invalid':
        return this.#options.keyIntervalMs;
      case 'nothing-routable':
        return this.#options.nothingRoutableIntervalMs;
    }
  }
}

function throttleKey(alert: HealthAlert): string {
  switch (alert.kind) {
    case 'model-open':
      return `model:${alert.model}`;
    case 'key-invalid':
      return `key:${alert.provider}`;
    case 'nothing-routable':
      return 'nothing-routable';
  }
}

function dedupe(alerts: readonly HealthAlert[]): HealthAlert[] {
  const byKey = new Map<string, HealthAlert>();
  for (const alert of alerts) byKey.set(throttleKey(alert), alert);
  return [...byKey.values()];
}

function seconds(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

/** The text of one alert. */
export function describe(alert: HealthAlert): Notice {
  switch (alert.kind) {
    case 'model-open': {
      const why = alert.lastFailureKind ? ` (last failure: ${alert.lastFailureKind})` : '';
      return {
        title: `Model tripped: ${alert.model}`,
        body: `Skipped for ${seconds(alert.cooldownMs)} after repeated failures${why}. Other models take over.`,
      };
    }
    case 'key-invalid':
      return {
        title: `${alert.provider} key refused`,
        body: 'The provider rejected the API key. Its models are skipped until you update the key in the dashboard.',
      };
    case 'nothing-routable':
      return {
        title: 'Nothing routable',
        body: `No model of set "${alert.activeSet}" is available; agents get errors until one recovers.`,
      };
  }
}

function summarise(alerts: readonly HealthAlert[]): Notice {
  const models = alerts.flatMap((a) => (a.kind === 'model-open' ? [a.model] : []));
  const providers = alerts.flatMap((a) => (a.kind === 'key-invalid' ? [a.provider] : []));
  const nothing = alerts.find((a) => a.kind === 'nothing-routable');
  const parts: string[] = [];
  if (models.length > 0)
    parts.push(`${models.length} model${models.length === 1 ? '' : 's'} tripped: ${list(models)}`);
  if (providers.length > 0) parts.push(`key refused: ${list(providers)}`);
  const body = `${parts.join('; ')}.`;
  if (nothing)
    return {
      title: 'Nothing routable',
      body: `No model of set "${nothing.activeSet}" is available. ${body}`,
    };
  return { title: `${alerts.length} router alerts`, body };
}

function list(names: readonly string[]): string {
  return names.length <= 3
    ? names.join(', ')
    : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}
