import { z } from 'zod/v3';
import { CATALOGUE_PROVIDERS } from '../catalogue/providers.js';

/**
 * The one schema of `config.json`: it gives the TypeScript types, the validation of the file and of
 * `PUT /api/config`, and the per-path errors the settings editor shows. Every key is optional and
 * defaults as documented in the README's config reference. Unknown keys are errors (a typo must not
 * silently fall back to a default).
 */

/** A model key: `provider/modelId`, split at the first `/` (model ids may contain `/`). */
export const modelKeySchema = z.string().regex(/^[A-Za-z0-9._-]+\/\S+$/, 'must be "provider/modelId"');

/** Names that would reach an object's prototype machinery if used as a key: never ids. */
export const RESERVED_IDS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A provider id or set name: letters, digits, `. _ -`, and not a reserved name. */
function idSchema(what: string) {
  return z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, `${what}: letters, digits, . _ -`)
    .refine(
      (id) => !RESERVED_IDS.has(id),
      `${what}: "__proto__", "constructor" and "prototype" are reserved`,
    );
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

/** Why a header name cannot be configured, or null when it can. */
export function headerNameProblem(name: string): string | null {
  const lower = name.toLowerCase();
  if (!HEADER_NAME.test(name))
    return "is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~, no spaces)";
  if (FORBIDDEN_HEADERS.has(lower) || lower.startsWith('proxy-'))
    return 'is set by the HTTP client (connection, length, host and proxy headers cannot be configured)';
  if (RESERVED_IDS.has(name)) return 'is a reserved name';
  return null;
}

// Names are checked as record keys: a `__proto__` key never reaches a refinement of the parsed record.
const headerNameSchema = z.string().superRefine((name, ctx) => {
  const problem = headerNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: `header name ${problem}` });
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

/**
 * An `apiKeyEnv` must look like a credential (`…_KEY`, `…_TOKEN`, `…_API_KEY`) or be one the catalogue
 * names: the variable's value is sent upstream as a bearer key, so `HOME` or `PATH` must never be.
 */
export function isCredentialEnvName(name: string): boolean {
  return /_(KEY|TOKEN)$/i.test(name) || CATALOGUE_KEY_ENV.has(name);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const timeoutMs = z.number().int().min(500).max(3_600_000);
const cooldownMs = z.number().int().min(1000).max(86_400_000);

export const providerConfigSchema = z.strictObject({
  /** Display name for a provider the catalogue does not know. */
  name: z.string().min(1).max(100).optional(),
  /** The key itself (stored 0600, never sent back by the API). */
  apiKey: z.string().max(4096).optional(),
  /** An environment variable holding the key, overriding the catalogue's list. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .refine(
      isCredentialEnvName,
      'must name a key variable: ending in _KEY, _TOKEN or _API_KEY, or one the catalogue uses',
    )
    .optional(),
  /** OpenAI-compatible base URL (the prefix of `<base>/chat/completions`). */
  baseUrl: z.string().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  /** Model ids of this provider; for catalogue providers they are added to the catalogue's. */
  models: z.array(z.string().min(1).max(300)).max(1000).optional(),
  enabled: z.boolean().optional(),
  /** Extra request headers for this provider (not for secrets: they are shown unmasked). */
  headers: headersSchema.optional(),
});

export const failoverSchema = z.strictObject({
  maxAttempts: z.number().int().min(1).max(20).default(4),
  requestTimeoutMs: timeoutMs.default(15_000),
  bodyReadTimeoutMs: timeoutMs.default(30_000),
  streamIdleTimeoutMs: timeoutMs.default(8000),
  totalBudgetMs: timeoutMs.default(120_000),
  contentValidation: z.enum(['strict', 'basic', 'off']).default('strict'),
  holdBufferBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(262_144),
  lastResortModel: modelKeySchema.nullable().default(null),
});

/** Limits on what clients send the router's HTTP server. */
export const serverSchema = z.strictObject({
  /** The whole request (head and body) must arrive within this; a streaming answer is never cut by it. */
  requestBodyTimeoutMs: z.number().int().min(500).max(600_000).default(30_000),
  /** Requests whose bodies are still arriving; past this, new ones get 503 until some finish. */
  maxPendingBodies: z.number().int().min(1).max(100_000).default(256),
});

export const breakerSchema = z.strictObject({
  failureThreshold: z.number().int().min(1).max(20).default(3),
  degradedRatio: z.number().min(0.1).max(1).default(0.6),
  initialCooldownMs: cooldownMs.default(30_000),
  maxCooldownMs: cooldownMs.default(300_000),
  backoffMultiplier: z.number().min(1).max(10).default(2),
});

export const configSchema = z
  .strictObject({
    providers: z.record(idSchema('provider id'), providerConfigSchema).default({}),
    sets: z.record(idSchema('set name'), z.array(modelKeySchema).max(500)).optional(),
    activeSet: z.string().min(1).default('default'),
    router: z
      .strictObject({
        failover: failoverSchema.default(() => failoverSchema.parse({})),
        breaker: breakerSchema.default(() => breakerSchema.parse({})),
        server: serverSchema.default(() => serverSchema.parse({})),
      })
      .default(() => ({
        failover: failoverSchema.parse({}),
        breaker: breakerSchema.parse({}),
        server: serverSchema.parse({}),
      })),
  })
  .superRefine((config, ctx) => {
    if (config.sets && Object.keys(config.sets).length > 0 && !Object.hasOwn(config.sets, config.activeSet)) {
      ctx.addIssue({
        code: 'custom',
        path: ['activeSet'],
        message: `names no set (sets: ${Object.keys(config.sets).join(', ')})`,
      });
    }
    const { breaker } = config.router;
    if (breaker.maxCooldownMs < breaker.initialCooldownMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['router', 'breaker', 'maxCooldownMs'],
        message: 'must be at least initialCooldownMs',
      });
    }
  });

/** The config as written by the user (every key optional). */
export type ConfigInput = z.input<typeof configSchema>;
/** The config with every default filled in. */
export type Config = z.output<typeof configSchema>;
export type ProviderConfig = z.output<typeof providerConfigSchema>;
export type FailoverSettings = z.output<typeof failoverSchema>;
export type BreakerSettings = z.output<typeof breakerSchema>;
export type ServerSettings = z.output<typeof serverSchema>;
export type ContentValidation = FailoverSettings['contentValidation'];

/** One validation problem, addressed by its JSON path (`router.breaker.failureThreshold`). */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** Turns zod issues into `{path, message}` pairs with dotted JSON paths. */
export function toConfigIssues(error: z.ZodError): ConfigIssue[] {
  const dotted = (path: readonly PropertyKey[]): string => path.map(String).join('.') || '(root)';
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: dotted([...issue.path, key]), message: 'unknown key' }))
      : [{ path: dotted(issue.path), message: issue.message }],
  );
}

/** Validates an unknown value as a config. */
export function parseConfig(
  value: unknown,
): { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] } {
  const result = configSchema.safeParse(value);
  return result.success
    ? { ok: true, config: result.data }
    : { ok: false, issues: toConfigIssues(result.error) };
}

/** The defaults of every knob, for the editor and for the README. */
export const DEFAULT_CONFIG: Config = configSchema.parse({});
