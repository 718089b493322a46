/**
 * What the chain does when a stream breaks after content reached the client: the next candidate finishes
 * the answer (`continue`), the answer is closed as it stands because only its ending was missing
 * (`close`), or the client keeps the partial answer with the face's error ending (`give_up`, as before).
 */
import type { FailureKind } from '../../gate/failure-kinds.js';
import { partOf } from '../../gate/stream-part.js';
import { BodyTemplate } from '../../upstream/body-template.js';
import { closingFrames, type AnswerSoFar } from './answer-so-far.js';
import { continuationBody, continuationNeeds } from './continuation-request.js';
import { shapingOf } from './shaping-rules.js';
import type { DispatchResult, RequestRun } from '../routing/dispatch.js';
import type { ChatRequest } from '../routing/route-context.js';

/** An answer being continued after its stream broke. */
export interface Continuation {
  /** The request as the agent sent it (each continuation is built from it and the whole answer so far). */
  origin: ChatRequest;
  /** The latest break: the face's error ending names it if nothing finishes the answer. */
  broke: { kind: FailureKind; model: string };
}

export type BreakPlan = 'continue' | 'close' | 'give_up';

/** What decides the plan after a break. */
export interface BreakFacts {
  /** `router.failover.continueStreams`. */
  enabled: boolean;
  clientGone: boolean;
  /** Tool calls were held until whole and checked (so those sent are whole). */
  toolsChecked: boolean;
  /** The request can be continued at all (it has messages and asks for one choice). */
  continuable: boolean;
  soFar: AnswerSoFar;
}

/**
 * The plan after a stream broke after content. Never for a client that left. An answer whose tool calls
 * (checked, so whole) or finish reason went out lacks only its ending: it is closed as it stands, and the
 * agent runs its calls. Otherwise the next candidate continues it, unless the answer is too long to carry.
 * Pure.
 */
export function breakPlan(facts: BreakFacts): BreakPlan {
  const { soFar } = facts;
  if (!facts.enabled || facts.clientGone) return 'give_up';
  if (soFar.toolCalls > 0) return facts.toolsChecked ? 'close' : 'give_up';
  if (soFar.finished || soFar.done) return 'close';
  return soFar.tooLong || !facts.continuable ? 'give_up' : 'continue';
}

const SERVED: DispatchResult = { type: 'served' };
const NEXT: DispatchResult = { type: 'next' };

/**
 * After a dispatch: a broken stream is continued (the run is set to ask the next candidate for the rest,
 * and the chain goes on: `next`), closed (`served`), or left broken. Any other result is returned as it is.
 */
export function afterBreak(run: RequestRun, result: DispatchResult): DispatchResult {
  if (result.type !== 'broken') return result;
  const { answer, ctx } = run;
  // Whatever follows (the next model's lines, the closing frames, the error ending) starts an event.
  answer.endEvent();
  const origin = run.continuation?.origin ?? run.req;
  const soFar = answer.soFar();
  const body = continuationBody(origin.body, soFar);
  const plan = breakPlan({
    enabled: ctx.resolved.config.router.failover.continueStreams,
    clientGone: origin.clientGone.gone,
    toolsChecked: run.tools !== null,
    continuable: body !== null && !(typeof origin.body.n === 'number' && origin.body.n > 1),
    soFar,
  });
  if (plan === 'give_up' || body === null) return result;
  if (plan === 'close') {
    answer.streamPart(partOf(closingFrames(soFar), answer.reads));
    answer.endStream();
    return SERVED;
  }
  run.continuation = { origin, broke: { kind: result.kind, model: result.model } };
  run.req = { ...origin, body, needs: continuationNeeds(origin.needs, soFar) };
  run.body = new BodyTemplate(body);
  delete run.variants;
  delete run.bodyWithoutMaxTokens;
  // The continuation has the request's whole budget to reach its first new content, from the break on.
  run.deadline = ctx.clock() + ctx.resolved.config.router.failover.totalBudgetMs;
  run.shaping = { ...shapingOf(run), continuing: soFar };
  return NEXT;
}
