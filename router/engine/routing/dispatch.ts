import type { ResolvedModel } from '../../config/resolve-config.js';
import type { OfferedTools } from '../../gate/offered-tools.js';
import type { GateAsks } from '../../gate/response-gate.js';
import { BodyTemplate } from '../../upstream/body-template.js';
import { withoutMaxTokens } from '../../faces/max-tokens.js';
import type { Answer } from '../answer/answer.js';
import { applyEffects, type EffectTarget } from '../booking/apply-effects.js';
import { runAttempt, type AttemptInput, type AttemptVerdict } from './attempt.js';
import { attemptEffects, type AttemptEffects, type DispatchResult } from '../booking/attempt-effects.js';
import { countAttemptStart } from '../booking/request-bookkeeping.js';
import { bodyFor, inputFits, modelOf, type SentBody } from '../fit/fit-steps.js';
import { namedKey } from '../booking/key-rotation.js';
import { nextKey } from '../booking/key-choice.js';
import type { Continuation } from '../stream/continuation.js';
import { ContinuationSink } from '../answer/answer-handle.js';
import { shapingOf, type ShapingRules } from '../stream/shaping-rules.js';
import type { RequestTrace, Role } from '../answer/request-trace.js';
import type { ChatRequest, RouteContext } from './route-context.js';

/** One request while it is routed: what every step of its chain reads. */
export interface RequestRun {
  ctx: RouteContext;
  req: ChatRequest;
  answer: Answer;
  trace: RequestTrace;
  body: BodyTemplate;
  /** Epoch ms by which the answer must be committed. */
  deadline: number;
  /** A pinned model outside the catalogue's list is resolved once, here. */
  pinnedModel: ResolvedModel | null;
  /** The body without its output length, made the first time a model refuses it. */
  bodyWithoutMaxTokens?: BodyTemplate;
  /** The body changed for a model (its output clamped, its effort added), made the first time one needs it. */
  variants?: Map<string, BodyTemplate>;
  /** The tool names an answer's tool calls are checked against (`checkedToolNames`), or null. */
  tools: OfferedTools | null;
  /** The tools of which the answer must call one, when the request forces a call (`forcedToolNames`); else null. */
  forced: ReadonlySet<string> | null;
  /**
   * How each attempt's stream is shaped on its way to the client (tool calls held, a continuation trimmed):
   * made when the first stream starts (`shapingOf`).
   */
  shaping?: ShapingRules;
  /** Set while an answer whose stream broke after content is being finished by the next candidates. */
  continuation?: Continuation;
}

export type { DispatchResult } from '../booking/attempt-effects.js';

/** How an attempt in a hedged race writes (its own handle on the answer) and is stopped. */
export type Lane = Pick<AttemptInput, 'answer' | 'stoppable'>;

const NEXT: DispatchResult = { type: 'next' };

/** One model's turn on one key: what its attempts are made with, and where they write. */
interface KeyTurn extends EffectTarget {
  role: Role;
  lane: Lane | undefined;
}

/** How a key's turn ended: what it means for the chain, and what the model's turn does next. */
type TurnEnd = Pick<AttemptEffects, 'chain' | 'then'>;

const NOT_TRIED: TurnEnd = { chain: NEXT, then: 'done' };

/**
 * Runs one attempt on `key` (unless it cannot be dispatched: a skip), records it and applies its effects. A
 * key that is rate limited, out of credit or refused hands the model to the provider's next usable key
 * before the chain moves on to the next model. A model that refuses the request (400) while it asks for an
 * output length gets one more try without it: agents ask for far more output than most free models give,
 * and that must not make a whole set fail. A test of one key (`testKey`) goes with that key only, and is a
 * `missing_key` skip when the provider has no such key. In a hedged race, `lane` is the attempt's own way to
 * the answer.
 */
export async function dispatch(
  run: RequestRun,
  key: string,
  role: Role,
  lane?: Lane,
): Promise<DispatchResult> {
  const { ctx, trace } = run;
  const model = modelOf(run, key);
  const provider = model ? ctx.resolved.providers.get(model.provider) : undefined;
  if (!model || !provider || provider.baseUrl === null) {
    trace.skips.push({ model: key, reason: model ? 'provider_unresolvable' : 'unknown_model' });
    return NEXT;
  }
  const named = run.req.testKey ?? null;
  // The body is made before its key is chosen: a key is chosen for room in its minute for the body's size.
  let sent = bodyFor(run, model);
  const ask = { refused: trace.refusedKeys, tried: [] as string[], size: sent.size };
  let apiKey = named === null ? nextKey(provider, model, ctx.quotas, ask) : namedKey(provider, named);
  if (apiKey === null && named !== null) {
    trace.skips.push({ model: key, reason: 'missing_key' });
    return NEXT;
  }
  let result: DispatchResult = NEXT;
  while (apiKey !== null) {
    ask.tried.push(apiKey.fingerprint);
    const turn: KeyTurn = { model, provider, apiKey, role, lane };
    // Awaited here rather than in a function of its own: one async step fewer for every attempt.
    let end = await attemptOn(run, turn, sent);
    if (end.then === 'without_output_length') end = await withoutOutputLength(run, turn, end);
    result = end.chain;
    if (end.then !== 'next_key' || named !== null || !roomForAnother(run)) return result;
    sent = bodyFor(run, model);
    ask.size = sent.size;
    apiKey = nextKey(provider, model, ctx.quotas, ask);
  }
  return result;
}

/** The key's retry without an output length, after its `first` attempt was refused for asking one. */
async function withoutOutputLength(run: RequestRun, turn: KeyTurn, first: TurnEnd): Promise<TurnEnd> {
  const retry = withoutMaxTokens(run.req.body);
  // In a hedged race the other attempt may have committed meanwhile: no retry then (a continuation is
  // never raced: the answer it continues started before it).
  const taken = run.answer.started && run.continuation === undefined;
  // The retry is an attempt like any: within `maxAttempts` and the budget, and only for a client still there.
  if (retry.note === null || taken || !roomForAnother(run)) return first;
  // A model that said the request is too long for it is tried without an output length only if the input fits.
  if (!inputFits(run, turn.model.key)) return first;
  run.bodyWithoutMaxTokens ??= new BodyTemplate(retry.body);
  const bare = { body: run.bodyWithoutMaxTokens, note: retry.note, size: run.req.needs.input };
  return attemptOn(run, turn, bare);
}

/** Another attempt fits the request: under the attempt cap and the budget, and the client is still there. */
function roomForAnother(run: RequestRun): boolean {
  const { ctx, trace, req } = run;
  return (
    trace.attempts.length < ctx.resolved.config.router.failover.maxAttempts &&
    ctx.clock() < run.deadline &&
    !req.clientGone.gone
  );
}

/**
 * One attempt: run it to its verdict (`attempt.ts`), look up its effects (`attempt-effects.ts`), apply them
 * (`apply-effects.ts`). A trial of a tripped model runs only while it holds the model's one trial slot.
 */
async function attemptOn(run: RequestRun, turn: KeyTurn, sent: SentBody): Promise<TurnEnd> {
  const { ctx, trace } = run;
  const { model, provider, apiKey, role } = turn;
  const { key } = model;
  const holdsTrial = role === 'trial' || role === 'panic';
  if (holdsTrial && !ctx.breakers.tryAcquireTrial(key)) {
    trace.skips.push({ model: key, reason: 'half_open_busy' });
    return NOT_TRIED;
  }
  const before = ctx.breakers.get(key);
  // The trip this attempt went to, if it went to a tripped model: only that trip's success may close it.
  const sentToTrip = before.state === 'OPEN' || before.state === 'HALF_OPEN' ? before.tripCount : null;
  trace.begin(key, role, before.state);
  const countedAt = countAttemptStart(ctx.quotas, { provider, model, fingerprint: apiKey.fingerprint });
  const began = ctx.clock();
  let verdict: AttemptVerdict;
  try {
    verdict = await runAttempt(attemptInput(run, turn, sent.body));
  } finally {
    if (holdsTrial) ctx.breakers.releaseTrial(key);
  }
  const effects = attemptEffects(verdict, {
    model: key,
    role,
    breakerBefore: before.state,
    sentToTrip,
    totalMs: ctx.clock() - began,
    fingerprint: apiKey.fingerprint,
    quotaScope: provider.quotaScope,
    note: sent.note,
    size: sent.size,
    estimatedInput: run.req.needs.input,
    withoutOutputLength: sent.body === run.bodyWithoutMaxTokens,
    countedAt,
    probe: run.req.source === 'probe',
    local: provider.local,
  });
  applyEffects(run, turn, effects);
  return effects;
}

/** What the attempt is given: the turn's model, provider and key, the request, and its lane's answer. */
function attemptInput(run: RequestRun, turn: KeyTurn, body: BodyTemplate): AttemptInput {
  const { ctx, req } = run;
  const { model, provider, apiKey, lane } = turn;
  return {
    model,
    provider,
    apiKey: apiKey.value === '' ? null : apiKey.value,
    body,
    clientHeaders: req.clientHeaders,
    requestId: req.requestId,
    stream: req.stream,
    failover: ctx.resolved.config.router.failover,
    deadline: run.deadline,
    clock: ctx.clock,
    deadlines: ctx.deadlines,
    client: req.clientGone,
    upstream: ctx.upstream,
    // A continuing attempt writes through its own sink: the answer is already streaming.
    answer: lane?.answer ?? (run.continuation ? new ContinuationSink(run.answer, model.key) : run.answer),
    gate: gateAsks(run),
    signatures: ctx.signatures,
    shaping: () => shapingOf(run),
    stoppable: lane?.stoppable,
  };
}

/**
 * What the gate holds a whole answer to besides the mode: the offered tools, the call the request forces
 * and, for a health probe, an empty answer cut at its output limit taken as answered (its few tokens may all
 * go to hidden reasoning).
 */
function gateAsks(run: RequestRun): GateAsks {
  return { tools: run.tools, forced: run.forced, cutAnswers: run.req.source === 'probe' };
}
