/**
 * The parts of a free-coding-models config (`~/.free-coding-models.json`) this router can take over: provider
 * keys (one or a list per provider, or `${NAME}` variables), providers switched off, and the Smart Router's
 * sets. Everything else in that file is the other tool's own and is ignored.
 */
import { z } from 'zod/v3';
import { describeJsonError } from '../config/json-error.js';
import { toConfigIssues, type ConfigIssue } from '../config/schema.js';
import { readFcmKeys, type FcmKeys } from './fcm-keys.js';

const fcmModelSchema = z
  .object({
    provider: z.string({ invalid_type_error: 'a provider id (text)' }).min(1),
    model: z.string({ invalid_type_error: 'a model id (text)' }).min(1),
    priority: z.number().optional(),
  })
  .passthrough();

const fcmSetSchema = z
  .object(
    {
      models: z
        .array(fcmModelSchema, { invalid_type_error: 'a list of {"provider", "model"} entries' })
        .default([]),
    },
    { invalid_type_error: 'a set: {"models": [{"provider", "model"}, …]}' },
  )
  .passthrough();

/** What is read of the file; unknown keys are the other tool's and pass. */
export const fcmConfigSchema = z
  .object({
    // Each entry is read on its own (readFcmKeys): one unusable key skips its provider, not the import.
    apiKeys: z
      .record(z.string(), z.unknown(), {
        invalid_type_error: 'an object of provider id → key or list of keys',
      })
      .default({}),
    providers: z
      .record(z.string(), z.union([z.boolean(), z.object({ enabled: z.boolean().optional() }).passthrough()]))
      .default({}),
    router: z
      .object({
        activeSet: z.string().optional(),
        sets: z.record(z.string(), fcmSetSchema).default({}),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** A free-coding-models config as this router reads it. */
export interface FcmConfig {
  /** Provider id → its keys (trimmed, without empties or repeats), its variables, or why neither. */
  keys: Record<string, FcmKeys>;
  /** Providers switched off there. */
  disabled: string[];
  /** Set name → `provider/model` keys in priority order. */
  sets: Record<string, string[]>;
  activeSet: string | null;
}

/** Reads a free-coding-models config from its JSON text; every problem is named by its path. */
export function parseFcmConfig(
  text: string,
): { ok: true; config: FcmConfig } | { ok: false; issues: ConfigIssue[] } {
  const body = text.replace(/^\uFEFF/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    // Never V8's own message: it quotes the text, keys and all.
    return { ok: false, issues: [{ path: '(root)', message: describeJsonError(error, body) }] };
  }
  const parsed = fcmConfigSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: toConfigIssues(parsed.error) };
  const { apiKeys, providers, router } = parsed.data;
  const keys: Record<string, FcmKeys> = {};
  for (const [id, value] of Object.entries(apiKeys)) {
    const read = readFcmKeys(id, value);
    if (read !== null) keys[id] = read;
  }
  const disabled = Object.entries(providers)
    .filter(([, value]) => (typeof value === 'boolean' ? !value : value.enabled === false))
    .map(([id]) => id);
  const sets: Record<string, string[]> = {};
  for (const [name, set] of Object.entries(router?.sets ?? {})) {
    const ordered = set.models
      .map((entry, index) => ({ entry, index }))
      .sort(
        (a, b) =>
          (a.entry.priority ?? Number.MAX_SAFE_INTEGER) - (b.entry.priority ?? Number.MAX_SAFE_INTEGER) ||
          a.index - b.index,
      );
    sets[name] = [...new Set(ordered.map(({ entry }) => `${entry.provider}/${entry.model}`))];
  }
  return { ok: true, config: { keys, disabled, sets, activeSet: router?.activeSet ?? null } };
}
