/**
 * One request's decision trace as the history file keeps it (and the soak bench reads it back): model
 * names, kinds and timings only, never prompt or completion text. Unknown fields make an entry invalid.
 */
import { z } from 'zod/v3';
import { API_FACES, REQUEST_SOURCES, type AttemptView, type HistoryEntry } from '../api-types.js';
import { FAILURE_KINDS, REQUEST_OUTCOMES, SKIP_REASONS } from '../gate/failure-kinds.js';
import { isKeyFingerprint } from './key-fingerprint.js';

const ROLES = {
  normal: true,
  trial: true,
  panic: true,
  last_resort: true,
  pinned: true,
  hedge: true,
  continuation: true,
} satisfies Record<AttemptView['role'], true>;

const enumOf = <K extends string>(record: Record<K, true>) => z.enum(Object.keys(record) as [K, ...K[]]);
const name = z.string().min(1).max(500);
const ms = z.number().min(0);
const count = z.number().int().min(0).nullable();

/** One persisted history entry; unknown fields make it invalid. */
export const historyEntrySchema: z.ZodType<HistoryEntry, z.ZodTypeDef, unknown> = z.strictObject({
  seq: z.number().int().min(1).optional(),
  requestId: z.string().min(1).max(200),
  at: z.number(),
  modelRequested: z.string().max(500),
  set: name.nullable(),
  pinned: name.nullable(),
  servedModel: name.nullable(),
  outcome: z.enum(REQUEST_OUTCOMES),
  stream: z.boolean(),
  wallMs: ms,
  attempts: z
    .array(
      z.strictObject({
        model: name,
        status: z.number().int().nullable(),
        kind: z.enum(FAILURE_KINDS).nullable(),
        latencyMs: ms,
        breakerBefore: z.enum(['CLOSED', 'DEGRADED', 'OPEN', 'HALF_OPEN']),
        role: enumOf(ROLES),
        note: z.string().max(300).optional(),
        key: z.string().refine(isKeyFingerprint, 'a key fingerprint').optional(),
        unreached: z.literal(true).optional(),
        local: z.literal(true).optional(),
      }),
    )
    .max(100),
  skipped: z
    .array(
      z.strictObject({
        model: name,
        reason: z.enum(SKIP_REASONS),
        limit: z.number().int().min(0).optional(),
        until: z.number().optional(),
      }),
    )
    .max(2000),
  client: z.string().max(200).nullable(),
  clientStatus: z.number().int(),
  lastResortUsed: z.boolean(),
  usage: z
    .strictObject({ promptTokens: count, completionTokens: count, estimated: z.boolean().optional() })
    .nullable(),
  // Entries written before these fields existed came from agents, on chat completions.
  source: z.enum(REQUEST_SOURCES).default('agent'),
  api: z.enum(API_FACES).default('chat'),
  size: z.number().int().min(0).optional(),
  session: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  sticky: name.optional(),
  behind: z.array(name).max(2000).optional(),
  refusal: z
    .strictObject({ code: z.string().min(1).max(100), param: z.string().min(1).max(200).optional() })
    .optional(),
});
