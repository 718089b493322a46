import { z } from 'zod/v3';
import { CATALOGUE_PROVIDERS } from '../catalogue/providers.js';
import { PROVIDER_PRESETS } from '../catalogue/body-presets.js';
import { isTimeZone } from '../state/day-start.js';
import type { BreakerSettings } from '../state/breaker.js';
import { dottedPaths, issuePlaces, UNSHOWN_NAME } from './issue-paths.js';
import { baseUrlProblem } from './base-url.js';

/**
 * The one schema of `config.json`: it gives the TypeScript types, the validation of the file and of
 * `PUT /api/config`, and the per-path errors the settings editor shows. Every key is optional and
 * defaults as documented in the README's config reference. Unknown keys are errors (a typo must not
 * silently fall back to a default).
 */

/** A model key: `provider/modelId`, split at the first `/` (model ids may contain `/`). */
export const modelKeySchema = z
  .string({ invalid_type_error: 'a model: name one as provider/modelId (text)' })
  .regex(
    /^[A-Za-z0-9._-]+\/\S+$/,
    'a model: name one as provider/modelId, e.g. groq/llama-3.3-70b-versatile',
  );

/**
 * Whether `id` can be a model id of a provider: sets, pins and the last resort name a model as
 * `provider/modelId` with no blank in it ({@link modelKeySchema}), so an id with a space or a line break
 * could be listed but never put in a set.
 */
export function isModelIdText(id: string): boolean {
  return /^\S+$/.test(id);
}

export const MODEL_ID_MESSAGE =
  'a model id has no spaces: sets and pins name a model as provider/model-id (check the id in the provider’s list)';

/**
 * A whole number from `min` to `max`; every way to miss says so in words (the editor shows these as they
 * are): "a whole number of milliseconds, at least 500".
 */
function wholeNumber(unit: string, min: number, max: number) {
  const low = `a whole number of ${unit}, at least ${min}`;
  return z
    .number({ invalid_type_error: low })
    .int(low)
    .min(min, low)
    .max(max, `a whole number of ${unit}, at most ${max}`);
}

/** A number from `min` to `max` (fractions allowed), with the range in words. */
function numberBetween(what: string, min: number, max: number) {
  const words = `${what} from ${min} to ${max}`;
  return z.number({ invalid_type_error: words }).min(min, words).max(max, words);
}

/** Names that would reach an object's prototype machinery if used as a key: never ids. */
export const RESERVED_IDS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A record key's schema: a name not made of `chars` is refused with `message`, and its issue marked so
 * that no issue's path quotes it (it may be a pasted header line, key and all); a name of those characters
 * may still be refused by `known` (a reserved name: safe to show).
 */
function nameSchema(chars: RegExp, message: string, known: (name: string) => string | null = () => null) {
  return z.string().superRefine((name, ctx) => {
    if (!chars.test(name)) return ctx.addIssue({ code: 'custom', message, params: UNSHOWN_NAME });
    const problem = known(name);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
}

const ID_CHARS = /^[A-Za-z0-9._-]+$/;

const idWords = (what: string): string => `${what}: letters, digits, . _ -`;
const reservedIdProblem =
  (what: string) =>
  (id: string): string | null =>
    RESERVED_IDS.has(id) ? `${what}: "__proto__", "constructor" and "prototype" are reserved` : null;

/** A provider id or set name: letters, digits, `. _ -`, and not a reserved name. */
function idSchema(what: string) {
  return nameSchema(ID_CHARS, idWords(what), reservedIdProblem(what));
}

/** Why `id` cannot name a provider, in the words of the config's issue, or null when it can. */
export function providerIdProblem(id: string): string | null {
  return ID_CHARS.test(id) ? reservedIdProblem('provider id')(id) : idWords('provider id');
}

/** An HTTP field name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, space and tab: no CR, LF or NUL (header injection), nothing the HTTP client refuses. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** Headers that frame or route the message: set by the HTTP client, never by the config. */
const FORBIDDEN_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'te',
  'trailer',
]);

const HEADER_NAME_WORDS = "is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~, no spaces)";

/** Why a header name cannot be configured, or null when it can. */
export function headerNameProblem(name: string): string | null {
  const lower = name.toLowerCase();
  if (!HEADER_NAME.test(name)) return HEADER_NAME_WORDS;
  if (FORBIDDEN_HEADERS.has(lower) || lower.startsWith('proxy-'))
    return 'is set by the HTTP client (connection, length, host and proxy headers cannot be configured)';
  if (RESERVED_IDS.has(name)) return 'is a reserved name';
  return null;
}

// Names are checked as record keys: a `__proto__` key never reaches a refinement of the parsed record.
const headerNameSchema = nameSchema(HEADER_NAME, `header name ${HEADER_NAME_WORDS}`, (name) => {
  const problem = headerNameProblem(name);
  return problem === null ? null : `header name ${problem}`;
});
const headersSchema = z
  .record(
    headerNameSchema,
    z.string().max(1000).regex(HEADER_VALUE, 'header values: printable ASCII only, no line breaks'),
  )
  .refine((headers) => Object.keys(headers).length <= 50, 'at most 50 headers');

/** Environment variables the catalogue reads keys from. */
const CATALOGUE_KEY_ENV: ReadonlySet<string> = new Set(
  CATALOGUE_PROVIDERS.flatMap((provider) => provider.keyEnv),
);

/** A variable made for fcm-router: `FCM_…_KEY` or `FCM_…_TOKEN`, numbered or not (`FCM_GROQ_KEY_2`). */
const OWN_KEY_ENV = /^FCM_[A-Za-z0-9_]+_(KEY|TOKEN)(_\d+)?$/;

/** Whether `name` is a variable made for fcm-router: `FCM_…_KEY` or `FCM_…_TOKEN`. */
export function isOwnKeyEnvName(name: string): boolean {
  return OWN_KEY_ENV.test(name);
}

/**
 * An `apiKeyEnv` may name only a variable the catalogue reads keys from, or one made for fcm-router
 * (`FCM_…_KEY`, `FCM_…_TOKEN`): the variable's value is sent upstream as a bearer key to the provider's
 * address, which whoever may change the config chooses, so no other secret of the environment
 * (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`) may ever be named.
 */
export function isCredentialEnvName(name: string): boolean {
  return CATALOGUE_KEY_ENV.has(name) || isOwnKeyEnvName(name);
}

/** A provider's base URL, refused with the words of {@link baseUrlProblem} (which never quote it). */
const baseUrlSchema = z.string().superRefine((value, ctx) => {
  const problem = baseUrlProblem(value);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

const timeoutMs = wholeNumber('milliseconds', 500, 3_600_000);
const cooldownMs = wholeNumber('milliseconds', 1000, 86_400_000);

/**
 * Health probes of one provider's models (off by default: they spend the provider's free quota). A probe
 * is a tiny completion through the same gate as an agent's request.
 */
export const probeSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Probe a model of this provider nobody used for this long, to keep its latency fresh; null: never. */
  idleIntervalMs: wholeNumber('milliseconds', 60_000, 86_400_000).nullable().default(null),
  /** At most this many probes per day (the provider's `dayTimeZone`) across the provider's models. */
  dailyBudget: wholeNumber('probes', 1, 10_000).default(50),
});

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const envName = z
  .string({ invalid_type_error: 'an environment variable name, or a list of them' })
  .regex(ENV_NAME, 'must be an environment variable name')
  // Only a well-formed name is judged further: one message per problem.
  .refine(
    (name) => !ENV_NAME.test(name) || isCredentialEnvName(name),
    'must name a key variable the catalogue reads (GROQ_API_KEY…) or one made for fcm-router: FCM_…_KEY or FCM_…_TOKEN (e.g. FCM_MY_PROXY_KEY); no other variable of the environment is sent upstream',
  );

const budget = (unit: string) => wholeNumber(unit, 1, 1_000_000_000).nullable().optional();

/** Requests and tokens per minute and per day; null: no limit of that kind. */
const limitsSchema = z.strictObject({
  rpm: budget('requests per minute'),
  rpd: budget('requests per day'),
  tpm: budget('tokens per minute'),
  tpd: budget('tokens per day'),
});

/**
 * What one model can take, over what the provider's list and the catalogue say: its context window and
 * longest output in tokens, and whether it takes tools and images.
 */
const modelFitSchema = z.strictObject({
  contextWindow: wholeNumber('tokens', 256, 100_000_000).optional(),
  maxOutputTokens: wholeNumber('tokens', 16, 100_000_000).optional(),
  tools: z.boolean().optional(),
  images: z.boolean().optional(),
  /** It takes `reasoning_effort`: the effort Claude Code or Codex asks for is passed on to it. */
  reasoningEffort: z.boolean().optional(),
});

/** An IANA time zone the runtime knows; the length bound keeps a damaged value out of the formatter cache. */
const timeZoneSchema = z
  .string()
  .max(100)
  .refine(isTimeZone, 'must be a time zone such as America/Los_Angeles or UTC (an IANA name)');

/** Printable ASCII, no blank: what an API key is, once the blanks around it are trimmed. */
const API_KEY_TEXT = /^[\x21-\x7e]*$/;

/**
 * Whether `key` can be an API key: printable ASCII without spaces or line breaks (blanks around it are
 * trimmed when it is used). Anything else could never be sent in a header: every request would fail
 * locally, and be blamed on the provider.
 */
export function isApiKeyText(key: string): boolean {
  return API_KEY_TEXT.test(key.trim());
}

export const API_KEY_MESSAGE =
  'an API key is printable ASCII without spaces or line breaks: check it for a stray character from pasting';

/** One API key, as the config and `POST /api/providers/key` take it (`""`: none). */
export const apiKeySchema = z.string().max(4096).refine(isApiKeyText, API_KEY_MESSAGE);

export const providerConfigSchema = z.strictObject({
  /** Display name for a provider the catalogue does not know. */
  name: z.string().min(1).max(100).optional(),
  /** The key itself (stored 0600, never sent back by the API). */
  apiKey: apiKeySchema.optional(),
  /** More keys of the same provider, tried in turn when one is rate-limited or refused (after `apiKey`). */
  apiKeys: z.array(apiKeySchema).max(50).optional(),
  /** Environment variables holding keys (one name or a list), overriding the catalogue's list. */
  apiKeyEnv: z.union([envName, z.array(envName).min(1).max(50)]).optional(),
  /** OpenAI-compatible base URL (the prefix of `<base>/chat/completions`). */
  baseUrl: baseUrlSchema.optional(),
  /** Model ids of this provider; for catalogue providers they are added to the catalogue's. */
  models: z.array(z.string().min(1).max(300)).max(1000).optional(),
  enabled: z.boolean().optional(),
  /** Free-tier limits of every model of this provider, over the catalogue's (null removes one). */
  limits: limitsSchema.optional(),
  /** Free-tier limits per model id, over `limits`. */
  modelLimits: z.record(z.string().min(1).max(300), limitsSchema).optional(),
  /** Per model id: its context window, longest output, tools and images (see docs/configuration.md). */
  modelFit: z.record(z.string().min(1).max(300), modelFitSchema).optional(),
  /** Where the provider's day starts for its daily limits (its midnight), over the catalogue's; UTC by default. */
  dayTimeZone: timeZoneSchema.optional(),
  /** Extra request headers for this provider (not for secrets: they are shown unmasked). */
  headers: headersSchema.optional(),
  /** How its requests are reshaped, over the catalogue's (see `catalogue/body-presets.ts`). */
  bodyPreset: z
    .enum(PROVIDER_PRESETS, { errorMap: () => ({ message: `one of ${PROVIDER_PRESETS.join(', ')}` }) })
    .optional(),
  /** Health probes; absent means off. */
  probe: probeSchema.optional(),
});

const HEDGE_WORDS = '"auto", a whole number of milliseconds (at least 100), or null';

export const failoverSchema = z.strictObject({
  maxAttempts: wholeNumber('attempts', 1, 20).default(4),
  requestTimeoutMs: timeoutMs.default(15_000),
  bodyReadTimeoutMs: timeoutMs.default(30_000),
  streamIdleTimeoutMs: timeoutMs.default(8000),
  totalBudgetMs: timeoutMs.default(120_000),
  contentValidation: z
    .enum(['strict', 'basic', 'off'], { errorMap: () => ({ message: 'one of strict, basic or off' }) })
    .default('strict'),
  holdBufferBytes: wholeNumber('bytes', 1024, 16 * 1024 * 1024).default(262_144),
  lastResortModel: modelKeySchema.nullable().default(null),
  /**
   * Start the next candidate alongside an attempt that has committed nothing after this delay: a number of
   * ms, `auto` (3 x the model's p95 time to first byte, at least 2 s) or null (never, the default).
   */
  hedgeAfterMs: z
    .union([z.literal('auto'), wholeNumber('milliseconds', 100, 3_600_000)], {
      errorMap: () => ({ message: HEDGE_WORDS }),
    })
    .nullable()
    .default(null),
  /**
   * A stream that dies after content and before its end is finished by the next candidate (the answer so far
   * and an instruction to go on); false ends it with the face's error, as it got so far.
   */
  continueStreams: z.boolean({ invalid_type_error: 'true or false' }).default(true),
});

/** Limits on what clients send the router's HTTP server. */
export const serverSchema = z.strictObject({
  /** The whole request (head and body) must arrive within this; a streaming answer is never cut by it. */
  requestBodyTimeoutMs: z.number().int().min(500).max(600_000).default(30_000),
  /** Requests whose bodies are still arriving; past this, new ones get 503 until some finish. */
  maxPendingBodies: z.number().int().min(1).max(100_000).default(256),
});

export const breakerSchema = z.strictObject({
  failureThreshold: wholeNumber('failures', 1, 20).default(3),
  degradedRatio: numberBetween('a share of the failure threshold', 0.1, 1).default(0.6),
  initialCooldownMs: cooldownMs.default(30_000),
  maxCooldownMs: cooldownMs.default(300_000),
  backoffMultiplier: numberBetween('a factor', 1, 10).default(2),
}) satisfies z.ZodType<BreakerSettings, z.ZodTypeDef, unknown>;

const setNameSchema = nameSchema(ID_CHARS, 'set name: letters, digits, . _ -');

/** How a set orders its healthy models. */
export const setOrderSchema = z.enum(['priority', 'fastest'], {
  errorMap: () => ({ message: 'one of priority or fastest' }),
});

export const rankingSchema = z.strictObject({
  /** Set name → its order; a set not named here keeps `priority` (the user's order). */
  order: z.record(setNameSchema, setOrderSchema).default({}),
  /** In a `fastest` set, the share of requests that try the model measured longest ago first. */
  exploration: numberBetween('a share of requests', 0, 0.5).default(0.05),
});

/**
 * Why `activeSet` names no set of `sets`, or null when it names one. Without sets (or with none in them)
 * the one set is `default`, the one derived from the providers: another name would route over it all the
 * same, in silence.
 */
function activeSetProblem(sets: Record<string, unknown> | undefined, activeSet: string): string | null {
  const names = Object.keys(sets ?? {});
  if (names.length === 0)
    return activeSet === 'default'
      ? null
      : 'names no set: without "sets" the one set is "default" (write "default", or add the set to "sets")';
  if (Object.hasOwn(sets ?? {}, activeSet)) return null;
  // A set name that fails its own check is not quoted (it may be a pasted secret; it has its own issue).
  const shown = names.filter((name) => ID_CHARS.test(name));
  return shown.length === 0 ? 'names no set' : `names no set (the sets are: ${shown.join(', ')})`;
}

export const configSchema = z
  .strictObject({
    providers: z.record(idSchema('provider id'), providerConfigSchema).default({}),
    sets: z.record(idSchema('set name'), z.array(modelKeySchema).max(500)).optional(),
    activeSet: z.string().min(1).default('default'),
    router: z
      .strictObject({
        failover: failoverSchema.default(() => failoverSchema.parse({})),
        breaker: breakerSchema.default(() => breakerSchema.parse({})),
        ranking: rankingSchema.default(() => rankingSchema.parse({})),
        server: serverSchema.default(() => serverSchema.parse({})),
      })
      .default(() => ({
        failover: failoverSchema.parse({}),
        breaker: breakerSchema.parse({}),
        ranking: rankingSchema.parse({}),
        server: serverSchema.parse({}),
      })),
  })
  .superRefine((config, ctx) => {
    const activeSet = activeSetProblem(config.sets, config.activeSet);
    if (activeSet !== null) ctx.addIssue({ code: 'custom', path: ['activeSet'], message: activeSet });
    for (const name of Object.keys(config.router.ranking.order)) {
      if (config.sets && !(name in config.sets) && name !== 'default') {
        ctx.addIssue({ code: 'custom', path: ['router', 'ranking', 'order', name], message: 'names no set' });
      }
    }
    const { hedgeAfterMs, requestTimeoutMs } = config.router.failover;
    if (typeof hedgeAfterMs === 'number' && hedgeAfterMs >= requestTimeoutMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['router', 'failover', 'hedgeAfterMs'],
        message: `below the request timeout (${requestTimeoutMs} ms)`,
      });
    }
    const { breaker } = config.router;
    if (breaker.maxCooldownMs < breaker.initialCooldownMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['router', 'breaker', 'maxCooldownMs'],
        message: `at least the initial cooldown (${breaker.initialCooldownMs} ms)`,
      });
    }
  });

/** The config as written by the user (every key optional). */
export type ConfigInput = z.input<typeof configSchema>;
/** The config with every default filled in. */
export type Config = z.output<typeof configSchema>;
export type ProviderConfig = z.output<typeof providerConfigSchema>;
export type FailoverSettings = z.output<typeof failoverSchema>;
export type { BreakerSettings };
export type RankingSettings = z.output<typeof rankingSchema>;
export type ProbeSettings = z.output<typeof probeSchema>;
export type SetOrder = z.output<typeof setOrderSchema>;
export type ServerSettings = z.output<typeof serverSchema>;
export type ContentValidation = FailoverSettings['contentValidation'];

/** One validation problem, addressed by its JSON path (`router.breaker.failureThreshold`). */
export interface ConfigIssue {
  path: string;
  message: string;
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  string: 'text (a JSON string)',
  boolean: 'true or false',
  object: 'an object ({ … })',
  array: 'a list ([ … ])',
  null: 'null',
};

/** How the schema library's own messages begin. */
const LIBRARY_WORDING = /^(Expected|Required|Invalid|String must|Array must|Number must)/;

/**
 * Plain words for the issues no field spells out itself (the schema library's own text reads
 * "Expected boolean, received string"). Also used for the management API's request bodies.
 */
export const plainWords: z.ZodErrorMap = (issue, ctx) => {
  // A message a field spells out itself comes through as the default here: keep it.
  if (!LIBRARY_WORDING.test(ctx.defaultError)) return { message: ctx.defaultError };
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return { message: 'required' };
      return { message: TYPE_WORDS[issue.expected] ?? `of type ${issue.expected}` };
    case 'too_small':
      if (issue.type === 'string')
        return {
          message: issue.minimum === 1 ? 'must not be empty' : `at least ${issue.minimum} characters`,
        };
      if (issue.type === 'array') return { message: `at least ${issue.minimum} entries` };
      break;
    case 'too_big':
      if (issue.type === 'string') return { message: `at most ${issue.maximum} characters` };
      if (issue.type === 'array') return { message: `at most ${issue.maximum} entries` };
      break;
    case 'invalid_enum_value':
      return { message: `one of ${issue.options.map(String).join(', ')}` };
    default:
      break;
  }
  return { message: ctx.defaultError };
};

/**
 * Turns zod issues into `{path, message}` pairs with dotted JSON paths, one per path and message; a name
 * unsafe to show is a placeholder in them (`headers.<invalid name #1>`, see `issue-paths.ts`).
 */
export function toConfigIssues(error: z.ZodError): ConfigIssue[] {
  const places = error.issues.flatMap(issuePlaces);
  const paths = dottedPaths(places);
  const issues = places.map((place, index) => ({ path: paths[index] ?? '(root)', message: place.message }));
  // A fraction below the minimum breaks two rules that say the same thing: show it once.
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const id = `${issue.path}\n${issue.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Validates an unknown value as a config. */
export function parseConfig(
  value: unknown,
): { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] } {
  const result = configSchema.safeParse(value, { errorMap: plainWords });
  return result.success
    ? { ok: true, config: result.data }
    : { ok: false, issues: toConfigIssues(result.error) };
}

/** The defaults of every knob, for the editor and for the README. */
export const DEFAULT_CONFIG: Config = configSchema.parse({});
