/* eslint-disable no-console -- the CLI's job is to print */
/** `fcm-router reset <model>`: the daemon resets the model; the line printed says what that changed. */
import { z } from 'zod/v3';
import type { BreakerStateName, ModelResetResponse } from '../api-types.js';
import { callDaemon, type LiveDaemon } from './cli-control.js';

const resetAnswer: z.ZodType<ModelResetResponse> = z.object({
  ok: z.literal(true),
  breakerBefore: z.enum(['CLOSED', 'DEGRADED', 'OPEN', 'HALF_OPEN']),
  pauseLifted: z.boolean(),
});

const STATE_WORDS: Record<BreakerStateName, string> = {
  CLOSED: 'closed',
  DEGRADED: 'degraded',
  OPEN: 'open',
  HALF_OPEN: 'half-open',
};

/** What a reset did, in words: `groq/x: breaker closed (was degraded), quota pause lifted`. */
export function resetLine(model: string, reset: ModelResetResponse): string {
  const done: string[] = [];
  if (reset.breakerBefore !== 'CLOSED') done.push(`breaker closed (was ${STATE_WORDS[reset.breakerBefore]})`);
  if (reset.pauseLifted) done.push('quota pause lifted');
  return done.length > 0 ? `${model}: ${done.join(', ')}` : `${model}: nothing to reset (closed, not paused)`;
}

/** Resets one model through the daemon; prints what changed, or the router's message on failure. */
export async function runReset(daemon: LiveDaemon, model: string): Promise<number> {
  const answer = await callDaemon(daemon, 'POST', '/api/models/reset', { model });
  if (answer.message !== null) {
    console.error(`fcm-router: ${answer.message}`);
    return 1;
  }
  const reset = resetAnswer.safeParse(answer.body);
  // A daemon of an older version answers only { ok: true }: the reset was made, what it changed is unknown.
  console.log(reset.success ? resetLine(model, reset.data) : `${model}: reset`);
  return 0;
}
