/**
 * Free models' output limits. Agents ask for far more output than most free models give (Claude Code asks
 * for 32,000 tokens, 128,000 for its default model), and a model that refuses a too-large `max_tokens`
 * with a 400 must not make the whole set fail. Where a model's output limit is known (`modelFit` in the
 * config), or its context window leaves less, the request is clamped for that model (`engine/fit/fit-steps.ts`);
 * where it is refused anyway, the engine may retry that model once without the field.
 */

/** The output-token fields a chat body may carry. */
const FIELDS = ['max_tokens', 'max_completion_tokens'] as const;

/** A body to send, and what was changed, for the trace (null when nothing was). */
export interface MaxTokensFit<T> {
  body: T;
  note: string | null;
}

/**
 * Clamps `max_tokens` (and `max_completion_tokens`) to the model's known output limit. Returns the body
 * unchanged (the same object) when no field is over the limit or the limit is unknown (null); otherwise a
 * copy with the clamped fields and a note such as `max_tokens 32000 clamped to 8192 (the model's output
 * limit)`. Pure.
 *
 * @example fitMaxTokens({ model: 'm', messages: [], max_tokens: 32000 }, 8192).body.max_tokens // 8192
 */
export function fitMaxTokens<T extends Record<string, unknown>>(
  body: T,
  outputLimit: number | null,
  why = "the model's output limit",
): MaxTokensFit<T> {
  if (outputLimit === null || !Number.isFinite(outputLimit) || outputLimit < 1) return { body, note: null };
  const limit = Math.floor(outputLimit);
  let copy: Record<string, unknown> | null = null;
  const notes: string[] = [];
  for (const field of FIELDS) {
    const asked = body[field];
    if (typeof asked !== 'number' || asked <= limit) continue;
    copy ??= { ...body };
    copy[field] = limit;
    notes.push(`${field} ${asked} clamped to ${limit} (${why})`);
  }
  return copy ? { body: copy as T, note: notes.join('; ') } : { body, note: null };
}

/**
 * The body for the one retry of a model that refused the request while its output limit is unknown: the
 * same body without `max_tokens` / `max_completion_tokens`, and a note such as `max_tokens 32000 dropped
 * (the model refused it)`. Returns the body unchanged, with a null note, when it has neither field. Pure.
 */
export function withoutMaxTokens<T extends Record<string, unknown>>(body: T): MaxTokensFit<T> {
  const present = FIELDS.filter((field) => typeof body[field] === 'number');
  if (present.length === 0) return { body, note: null };
  const copy: Record<string, unknown> = { ...body };
  for (const field of present) delete copy[field];
  const note = present
    .map((field) => `${field} ${String(body[field])} dropped (the model refused it)`)
    .join('; ');
  return { body: copy as T, note };
}
