/** Every `router.failover` and `router.breaker` knob the settings editor shows, with unit and meaning. */

/** `hedge`: a number of ms, `auto`, or empty for off; `bool`: true or false. */
export type FieldKind = 'int' | 'number' | 'enum' | 'bool' | 'modelKey' | 'hedge';

export interface SettingsField {
  /** Dotted JSON path, exactly as the config schema and the server's issues name it. */
  path: string;
  section: 'failover' | 'breaker';
  /** The key inside its section. */
  key: string;
  label: string;
  kind: FieldKind;
  unit: 'ms' | 'bytes' | 'attempts' | 'failures' | 'ratio' | '×' | null;
  help: string;
  options?: readonly string[];
}

const failover = (key: string, rest: Omit<SettingsField, 'path' | 'section' | 'key'>): SettingsField => ({
  path: `router.failover.${key}`,
  section: 'failover',
  key,
  ...rest,
});
const breaker = (key: string, rest: Omit<SettingsField, 'path' | 'section' | 'key'>): SettingsField => ({
  path: `router.breaker.${key}`,
  section: 'breaker',
  key,
  ...rest,
});

export const SETTINGS_FIELDS: readonly SettingsField[] = [
  failover('maxAttempts', {
    label: 'Max attempts',
    kind: 'int',
    unit: 'attempts',
    help: 'Upstream tries per request before the agent gets an error (a pinned model gets one).',
  }),
  failover('requestTimeoutMs', {
    label: 'Request timeout',
    kind: 'int',
    unit: 'ms',
    help: 'Time to wait for an upstream’s response headers before failing over.',
  }),
  failover('bodyReadTimeoutMs', {
    label: 'Body read timeout',
    kind: 'int',
    unit: 'ms',
    help: 'Time to read a whole non-streaming response body.',
  }),
  failover('streamIdleTimeoutMs', {
    label: 'Stream idle timeout',
    kind: 'int',
    unit: 'ms',
    help: 'Longest silence between stream chunks; before any content it fails over unseen.',
  }),
  failover('totalBudgetMs', {
    label: 'Total budget',
    kind: 'int',
    unit: 'ms',
    help: 'One deadline for the whole request across all attempts, until the answer starts.',
  }),
  failover('contentValidation', {
    label: 'Content validation',
    kind: 'enum',
    unit: null,
    options: ['strict', 'basic', 'off'],
    help: 'strict: a 200 needs real content; basic: only errors and empty choices fail; off: JSON only.',
  }),
  failover('holdBufferBytes', {
    label: 'Hold buffer',
    kind: 'int',
    unit: 'bytes',
    help: 'Stream bytes held back while waiting for useful content; past it the stream passes through (or, when the request forces a tool call and none came, fails over).',
  }),
  failover('lastResortModel', {
    label: 'Last-resort model',
    kind: 'modelKey',
    unit: null,
    help: 'provider/model tried once after the chain fails, ignoring its breaker. Empty: none.',
  }),
  failover('hedgeAfterMs', {
    label: 'Hedge after',
    kind: 'hedge',
    unit: 'ms',
    help: 'Start the next model beside an attempt silent this long; auto: 3× its p95 time to first byte (≥ 2 s). Empty: off.',
  }),
  failover('continueStreams', {
    label: 'Continue broken streams',
    kind: 'bool',
    unit: null,
    options: ['true', 'false'],
    help: 'A stream that dies after content is finished by the next model in the same answer; false ends it with an error.',
  }),
  breaker('failureThreshold', {
    label: 'Failure threshold',
    kind: 'int',
    unit: 'failures',
    help: 'Consecutive failures that trip a model’s breaker OPEN.',
  }),
  breaker('degradedRatio', {
    label: 'Degraded ratio',
    kind: 'number',
    unit: 'ratio',
    help: 'Share of the threshold at which a model turns DEGRADED and moves behind healthy ones.',
  }),
  breaker('initialCooldownMs', {
    label: 'Initial cooldown',
    kind: 'int',
    unit: 'ms',
    help: 'How long a tripped breaker stays OPEN the first time before a trial request.',
  }),
  breaker('maxCooldownMs', {
    label: 'Max cooldown',
    kind: 'int',
    unit: 'ms',
    help: 'The cap on the cooldown as it grows with repeated trips.',
  }),
  breaker('backoffMultiplier', {
    label: 'Backoff multiplier',
    kind: 'number',
    unit: '×',
    help: 'Each further trip multiplies the cooldown by this.',
  }),
];
