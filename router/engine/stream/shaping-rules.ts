/**
 * How a request's streams are shaped (see `StreamShaper`): the tool names its calls are checked against,
 * what a continuing attempt restates, how much waits for the first content, the ids minted for tool
 * calls that came without one, and where their thought signatures are remembered. Made once per request,
 * when its first stream starts.
 */
import type { FailoverSettings } from '../../config/schema.js';
import { callIdMinter } from '../../gate/minted-ids.js';
import type { ThoughtSignatures } from '../../upstream/thought-signatures.js';
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
  /** Where the thought signatures of the tool calls let go are remembered (null: nowhere). */
  signatures: ThoughtSignatures | null;
}

/**
 * A request's shaping before any answer: its tool calls checked against `tools` (the request's
 * `checkedToolNames`; null: passed as they come), their signatures remembered in `signatures`.
 */
export function shapingRules(
  tools: ReadonlySet<string> | null,
  failover: Pick<FailoverSettings, 'holdBufferBytes'>,
  signatures: ThoughtSignatures | null,
): ShapingRules {
  const holdLimit = failover.holdBufferBytes;
  return { tools, continuing: null, holdLimit, mintId: callIdMinter(), signatures };
}

/** The run's shaping, made when its first stream starts (an answer served whole never needs it). */
export function shapingOf(run: RequestRun): ShapingRules {
  run.shaping ??= shapingRules(run.tools, run.ctx.resolved.config.router.failover, run.ctx.signatures);
  return run.shaping;
}
