import type { UsageView } from '../api-types.js';
import type { ProviderKey, ResolvedModel, ResolvedProvider } from '../config/resolve-config.js';
import type { FailureKind } from '../gate/failure-kinds.js';
import { BodyTemplate } from '../upstream/body-template.js';
import { withoutMaxTokens } from '../faces/max-tokens.js';
import { faultTrace } from '../upstream/exchange-errors.js';
import type { Answer } from './answer.js';
import { runAttempt, type AttemptInput, type AttemptVerdict } from './attempt.js';
import { countAttemptEnd, countAttemptStart, servedTokens } from './budget-counting.js';
import { inputFits, learnFromRefusal } from './fit-steps.js';
import { bodyFor, type SentBody } from './sent-body.js';
import { nextKey } from './key-rotation.js';
import { bookFailure, bookSuccess } from './request-bookkeeping.js';
import { sinkFor, type Continuation } from './continuation.js';
import type { ShapingRules } from './stream-shaper.js';
import type { RequestTrace, Role } from './request-trace.js';
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
  /** How each attempt's stream is shaped on its way to the client (tool calls held, a continuation trimmed). */
  shaping: ShapingRules;
  /** Set while an answer whose stream broke after content is being finished by the next candidates. */
  continuation?: Continuation;
}

/** What one dispatch means for the chain. */
export type DispatchResult =
  /** The answer went out whole. */
  | { type: 'served' }
  /** Not served, nothing sent: the next candidate may try (also for a candidate that was skipped). */
  | { type: 'next' }
  /** Not served, nothing sent, and no other model would do better (the client's own error, an abort). */
  | { type: 'stop' }
  /** The stream broke after content reached the client. */
  | { type: 'broken'; kind: FailureKind; model: string }
  /** The router's own code failed (logged); nobody's health is at stake. */
  | { type: 'fault'; model: string };

/** How an attempt in a hedged race writes (its own handle on the answer) and is stopped. */
export type Lane = Pick<AttemptInput, 'answer' | 'stoppable'>;

const NEXT: DispatchResult = { type: 'next' };
const STOP: DispatchResult = { type: 'stop' };
const SERVED: DispatchResult = { type: 'served' };

/**
 * Runs one attempt on `key` (unless it cannot be dispatched: a skip), records it and books its verdict. A
 * key that is rate limited, out of credit or refused hands the model to the provider's next usable key
 * before the chain moves on to the next model. A model that refuses the request (400) while it asks for an
 * output length gets one more try without it: agents ask for far more output than most free models give,
 * and that must not make a whole set fail. In a hedged race, `lane` is the attempt's own way to the answer.
 */
export async function dispatch(
  run: RequestRun,
  key: string,
  role: Role,
  lane?: Lane,
): Promise<DispatchResult> {
  const { ctx, trace } = run;
  const model = key === run.pinnedModel?.key ? run.pinnedModel : ctx.resolved.models.get(key);
  const provider = model ? ctx.resolved.providers.get(model.provider) : undefined;
  if (!model || !provider || provider.baseUrl === null) {
    trace.skips.push({ model: key, reason: model ? 'provider_unresolvable' : 'unknown_model' });
    return NEXT;
  }
  const triedKeys = new Set<string>();
  let apiKey = nextKey(provider, model, ctx.quotas, trace.refusedKeys, triedKeys);
  let result: DispatchResult = NEXT;
  while (apiKey !== null) {
    triedKeys.add(apiKey.fingerprint);
    const outcome = await onKey(run, model, provider, apiKey, role, lane);
    result = outcome.result;
    if (outcome.type !== 'key_refused' || !roomForAnother(run)) return result;
    apiKey = nextKey(provider, model, ctx.quotas, trace.refusedKeys, triedKeys);
  }
  return result;
}

/** One key's turn on the model: an attempt, and its retry without an output length when refused for it. */
async function onKey(
  run: RequestRun,
  model: ResolvedModel,
  provider: ResolvedProvider,
  apiKey: ProviderKey,
  role: Role,
  lane: Lane | undefined,
): Promise<Outcome> {
  const sent = bodyFor(run, model);
  const first = await attemptOn(run, model, provider, apiKey, role, sent, lane);
  if (first.type !== 'refused') return first;
  const retry = withoutMaxTokens(run.req.body);
  // In a hedged race the other attempt may have committed meanwhile: no retry then.
  if (retry.note === null || run.ctx.clock() >= run.deadline || run.answer.started) return first;
  // A model that said the request is too long for it is tried without an output length only if the input fits.
  if (!inputFits(run, model.key)) return first;
  run.bodyWithoutMaxTokens ??= new BodyTemplate(retry.body);
  const bare = { body: run.bodyWithoutMaxTokens, note: retry.note, size: run.req.needs.input };
  return attemptOn(run, model, provider, apiKey, role, bare, lane);
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
 * One attempt's result for the chain; `refused` when the model answered 400 before any byte went out,
 * `key_refused` when the key was (rate limited, out of credit, or refused) and another key may serve.
 */
type Outcome = { type: 'refused' | 'key_refused' | 'other'; result: DispatchResult };

/** Failures that belong to the key rather than the model: the provider's next key may serve. */
const KEY_FAILURES: ReadonlySet<string> = new Set(['rate_limit', 'payment_required', 'auth_error']);

async function attemptOn(
  run: RequestRun,
  model: ResolvedModel,
  provider: ResolvedProvider,
  apiKey: ProviderKey,
  role: Role,
  sent: SentBody,
  lane: Lane | undefined,
): Promise<Outcome> {
  const { ctx, trace, req } = run;
  const { body, note, size } = sent;
  const { key } = model;
  const holdsTrial = role === 'trial' || role === 'panic';
  if (holdsTrial && !ctx.breakers.tryAcquireTrial(key)) {
    trace.skips.push({ model: key, reason: 'half_open_busy' });
    return { type: 'other', result: NEXT };
  }
  const before = ctx.breakers.get(key);
  const breakerBefore = before.state;
  // The trip this attempt went to, if it went to a tripped model: only that trip's success may close it.
  const sentToTrip = breakerBefore === 'OPEN' || breakerBefore === 'HALF_OPEN' ? before.tripCount : null;
  trace.begin(key, role, breakerBefore);
  countAttemptStart(ctx.quotas, provider, model, apiKey.fingerprint);
  let verdict: AttemptVerdict;
  const began = ctx.clock();
  try {
    verdict = await runAttempt({
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
      answer: lane?.answer ?? sinkFor(run, key),
      shaping: run.shaping,
      stoppable: lane?.stoppable,
    });
  } finally {
    if (holdsTrial) ctx.breakers.releaseTrial(key);
  }
  if (verdict.type === 'served')
    ctx.latency.recordServed(
      key,
      verdict.latencyMs,
      ctx.clock() - began,
      verdict.usage?.completionTokens ?? null,
    );
  const served = verdict.type === 'served' ? servedTokens(verdict.usage, req.needs.input) : null;
  countAttemptEnd(ctx.quotas, provider, model, apiKey.fingerprint, served, verdict.rateLimit);
  const kind =
    verdict.type === 'served' ? null : verdict.type === 'fault' ? 'internal_error' : verdict.failure.kind;
  const { status, latencyMs } = verdict;
  trace.finish({
    model: key,
    status,
    kind,
    latencyMs,
    breakerBefore,
    role,
    ...(note === null ? {} : { note }),
    ...(apiKey.fingerprint === '' ? {} : { key: apiKey.fingerprint }),
  });
  const result = book(run, { key, provider, apiKey, role, sentToTrip }, verdict, served);
  if (verdict.type === 'served') ctx.fits.served(key, size, req.needs);
  if (verdict.type !== 'failed' || verdict.committed) return { type: 'other', result };
  if (KEY_FAILURES.has(verdict.failure.kind)) return { type: 'key_refused', result };
  learnFromRefusal(run, key, verdict.failure, size);
  // A refusal may be the output length's fault, unless it said otherwise or the body had none.
  const refused =
    verdict.status === 400 &&
    body !== run.bodyWithoutMaxTokens &&
    (verdict.failure.kind === 'invalid_request' || verdict.failure.kind === 'context_length');
  return { type: refused ? 'refused' : 'other', result };
}

/** What a verdict is booked against: the attempt's model, key, role and the trip it went to. */
interface Booking {
  key: string;
  provider: ResolvedProvider;
  apiKey: ProviderKey;
  role: Role;
  sentToTrip: number | null;
}

/** Books a verdict (breaker, pauses, stats) and tells the chain what it means. */
function book(
  run: RequestRun,
  booking: Booking,
  verdict: AttemptVerdict,
  served: UsageView | null,
): DispatchResult {
  const { ctx, trace } = run;
  const { key, provider, apiKey, role } = booking;
  switch (verdict.type) {
    case 'served':
      trace.usage = served;
      if (served !== null) ctx.quotas.usage.record(key, apiKey.fingerprint, served);
      // Only an attempt that went to a tripped model on purpose (trial, panic, last resort) may close it.
      bookSuccess(ctx, key, provider, apiKey.fingerprint, verdict.latencyMs, booking.sentToTrip);
      return SERVED;
    case 'fault':
      ctx.logger.error(
        `request ${trace.requestId}: local fault during the attempt on ${key}: ${faultTrace(verdict.fault)}`,
      );
      return { type: 'fault', model: key };
    case 'failed': {
      const { failure } = verdict;
      bookFailure(ctx, trace, key, provider, apiKey, role, failure, verdict.latencyMs);
      if (!verdict.committed) return failure.failover ? NEXT : STOP;
      return failure.kind === 'client_aborted' ? STOP : { type: 'broken', kind: failure.kind, model: key };
    }
  }
}
