/**
 * How a request's streams are shaped (see `StreamShaper`): the tool names its calls are checked against,
 * the call it forces, what a continuing attempt restates, how much waits for the first content, the ids
 * minted for tool calls that came without one, and where their thought signatures are remembered. Made once per request,
 * when its first stream starts.
 */
import type { FailoverSettings } from '../../config/schema.js';
import { callIdMinter } from '../../gate/minted-ids.js';
import type { OfferedTools } from '../../gate/offered-tools.js';
import type { ThoughtSignatures } from '../../upstream/thought-signatures.js';
import type { AnswerSoFar } from './answer-so-far.js';
import type { RequestRun } from '../routing/dispatch.js';

/** How one attempt's stream is shaped. */
export interface ShapingRules {
  /** The tool names the request offers; null when tool calls pass as they come (not checked). */
  tools: OfferedTools | null;
  /**
   * The tools of which the answer must call one (the request forces a call, `forcedToolNames`): nothing
   * commits before such a call; null when nothing is forced.
   */
  forced: ReadonlySet<string> | null;
  /** What the client already has when this attempt continues an answer; null for a fresh answer. */
  continuing: AnswerSoFar | null;
  /** Bytes kept back at most while no content has gone out (the hold buffer's size). */
  holdLimit: number;
  /** An id for a tool call that came without one. */
  mintId: () => string;
  /** Where the thought signatures of the tool calls let go are remembered (null: nowhere). */
  signatures: ThoughtSignatures | null;
}

/** What a request asks of its answer's tool calls: the names checked, and those of which one is forced. */
export interface ToolAsks {
  tools: OfferedTools | null;
  forced: ReadonlySet<string> | null;
}

/**
 * A request's shaping before any answer: its tool calls checked against `asks.tools` (the request's
 * `checkedToolNames`; null: passed as they come), one of `asks.forced` awaited before anything commits,
 * their signatures remembered in `signatures`.
 */
export function shapingRules(
  asks: ToolAsks,
  failover: Pick<FailoverSettings, 'holdBufferBytes'>,
  signatures: ThoughtSignatures | null,
): ShapingRules {
  const holdLimit = failover.holdBufferBytes;
  const { tools, forced } = asks;
  return { tools, forced, continuing: null, holdLimit, mintId: callIdMinter(), signatures };
}

/** The run's shaping, made when its first stream starts (an answer served whole never needs it). */
export function shapingOf(run: RequestRun): ShapingRules {
  run.shaping ??= shapingRules(run, run.ctx.resolved.config.router.failover, run.ctx.signatures);
  return run.shaping;
}
