/**
 * How a request's streams are shaped (see `StreamShaper`): the tool names its calls are checked against,
 * what a continuing attempt restates, how much waits for the first content, and the ids minted for tool
 * calls that came without one. Made once per request, when its first stream starts.
 */
import type { FailoverSettings } from '../../config/schema.js';
import { callIdMinter } from '../../gate/minted-ids.js';
import type { AnswerSoFar } from './answer-so-far.js';
import type { RequestRun } from '../routing/dispatch.js';

/** How one attempt's stream is shaped. */
export interface ShapingRules {
  /** The tool names the request offers; null when tool calls pass as they come (not checked). */
  tools: ReadonlySet<string> | null;
  /** What the client already has when this attempt continues an answer; null for a fresh answer. */
  continuing: AnswerSoFar | null;
  /** Bytes kept back at most while no content has gone out (the hold buffer's size). */
  holdLimit: number;
  /** An id for a tool call that came without one. */
  mintId: () => string;
}

/**
 * A request's shaping before any answer: its tool calls checked against `tools` (the request's
 * `checkedToolNames`; null: passed as they come).
 */
export function shapingRules(
  tools: ReadonlySet<string> | null,
  failover: Pick<FailoverSettings, 'holdBufferBytes'>,
): ShapingRules {
  return { tools, continuing: null, holdLimit: failover.holdBufferBytes, mintId: callIdMinter() };
}

/** The run's shaping, made when its first stream starts (an answer served whole never needs it). */
export function shapingOf(run: RequestRun): ShapingRules {
  run.shaping ??= shapingRules(run.tools, run.ctx.resolved.config.router.failover);
  return run.shaping;
}
