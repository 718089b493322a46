import type { AbortKind } from '../../upstream/attempt-guard.js';
import type { Deadlined } from '../../upstream/deadline-watch.js';
import type { Answer } from '../answer/answer.js';
import { AnswerHandle } from '../answer/answer-handle.js';
import { dispatch, type DispatchResult, type Lane, type RequestRun } from './dispatch.js';
import type { Role } from '../answer/request-trace.js';

/** One candidate's turn in the chain: its model and the role it is tried in. */
export interface ChainStep {
  key: string;
  role: Role;
}

/** How a hedged dispatch ended: what it means for the chain, and whether the hedge was started. */
export interface HedgeOutcome {
  result: DispatchResult;
  hedged: boolean;
}

/** One attempt of a race: its handle on the answer, and the stop that ends it when its rival commits. */
class RaceLane implements Lane {
  readonly answer: AnswerHandle;
  /** Its dispatch has returned. */
  done = false;
  #stop: ((kind: AbortKind) => void) | null = null;
  #stopped: AbortKind | null = null;

  constructor(answer: Answer, key: string, onCommit: () => void) {
    this.answer = new AnswerHandle(answer, key, onCommit);
  }

  /** Each attempt of the lane hands its stop here (a retry without max_tokens is a second attempt). */
  readonly stoppable = (stop: (kind: AbortKind) => void): void => {
    this.#stop = stop;
    if (this.#stopped !== null) stop(this.#stopped);
  };

  stop(kind: AbortKind): void {
    this.#stopped ??= kind;
    this.#stop?.(kind);
  }
}

/**
 * Dispatches `first`; when it has committed nothing after `delayMs`, starts the candidate `next()` gives
 * alongside it, in the role `hedge` (once: at most one hedge per request). The first attempt to commit owns
 * the answer and the other is stopped as `hedge_lost` (no blame, no damage); one that failed on its own
 * before is booked as usual. Both run inside the request's budget. Returns once every attempt started has
 * its verdict.
 */
export async function dispatchHedged(
  run: RequestRun,
  first: ChainStep,
  delayMs: number,
  next: () => ChainStep | null,
): Promise<HedgeOutcome> {
  const { ctx, answer, req } = run;
  const lanes: RaceLane[] = [];
  const results: Promise<DispatchResult>[] = [];
  const launch = (key: string, role: Role): Promise<DispatchResult> => {
    const lane = new RaceLane(answer, key, () => {
      for (const other of lanes) if (other !== lane) other.stop('hedge_lost');
    });
    lanes.push(lane);
    const result = dispatch(run, key, role, lane).finally(() => {
      lane.done = true;
    });
    // Awaited later (with the other lane's); a rejection meanwhile is not an unhandled one.
    result.catch(() => undefined);
    results.push(result);
    return result;
  };
  const primary = launch(first.key, first.role);
  const primaryLane = lanes[0] as RaceLane;
  const timer: Deadlined = {
    dueAt: ctx.clock() + delayMs,
    onDue: () => {
      if (primaryLane.done || answer.started || req.clientGone.gone || ctx.clock() >= run.deadline) return;
      const step = next();
      if (step !== null) void launch(step.key, 'hedge');
    },
  };
  const entry = ctx.deadlines.watch(timer);
  const primaryResult = await primary;
  ctx.deadlines.unwatch(entry);
  if (results.length === 1) return { result: primaryResult, hedged: false };
  return { result: raceResult(lanes, await Promise.all(results)), hedged: true };
}

/**
 * What a race means for the chain: the committed attempt's result; with no commit, a local fault first
 * (the request answers 500), then a stop (the client left, the budget ran out), else the next candidate.
 */
function raceResult(lanes: readonly RaceLane[], results: readonly DispatchResult[]): DispatchResult {
  const owner = lanes.findIndex((lane) => lane.answer.started);
  const owned = owner >= 0 ? results[owner] : undefined;
  if (owned !== undefined) return owned;
  return (
    results.find((result) => result.type === 'fault') ??
    results.find((result) => result.type === 'stop') ?? { type: 'next' }
  );
}
