import type { BreakerStateName, ErrorResponse, ModelStateView } from '../../../router/api-types.js';
import { PLACEHOLDER_KEY } from '../lib/agent-snippets.js';
import { parseDecision } from '../lib/decision.js';
import { api } from './endpoints.js';
import { routerToken } from './token.js';

/** What a test did to a model that was out of rotation: it was the model's trial. */
export interface TrialOutcome {
  passed: boolean;
  /** The breaker state right after the test. */
  stateAfter: BreakerStateName;
  /** How long the model stays OPEN after a failed trial; null when it is not OPEN. */
  openForMs: number | null;
}

/** The verdict of one pinned request through the router. Holds no prompt or completion text. */
export interface ModelTestResult {
  ok: boolean;
  /** The HTTP status the router answered with; 0 when it could not be reached. */
  status: number;
  /** Whether the router sent the request to the provider (else it answered by itself: paused, no key, …). */
  attempted: boolean;
  /** The provider's own HTTP status on the last attempt; null when it sent none (network error, timeout). */
  providerStatus: number | null;
  latencyMs: number;
  /** `served`, else the failure kind of the attempt or the router's error code. */
  verdict: string;
  /** The router's own error message (never upstream content). */
  message: string | null;
  /** Set when the model was OPEN or HALF_OPEN before the test: the test was its trial. */
  trial: TrialOutcome | null;
  /** The fingerprint of the one key the test was sent with, when it named one (else the keys in turn). */
  key: string | null;
}

/** A fixed, cheap question: enough output for the content gate, little quota spent. */
const PROBE_MESSAGES = [{ role: 'user', content: 'Reply with the single word: ok' }];

/** Marks the request as a dashboard test: history lists it apart and keeps it out of the agent counters. */
export const TEST_SOURCE_HEADER = { 'x-fcm-source': 'test' } as const;

/** Names the one key a test goes with, by its fingerprint (the router honours it on tests only). */
export const TEST_KEY_HEADER = 'x-fcm-key-fingerprint';

/** How a test is sent: with one key only (its fingerprint), and the clock its latency is read on. */
export interface TestOptions {
  /** The fingerprint of the key to test; none: the provider's keys in turn, as agents' requests go. */
  key?: string | null;
  now?: () => number;
}

/**
 * What a test did to a model that was OPEN or HALF_OPEN before it (its trial: success closes the breaker,
 * failure reopens it). Null when the model was routed normally before, or is no longer listed.
 */
export function trialOutcome(
  before: BreakerStateName | null,
  after: Pick<ModelStateView, 'state' | 'openUntil'> | undefined,
  now: number,
): TrialOutcome | null {
  if ((before !== 'OPEN' && before !== 'HALF_OPEN') || !after) return null;
  const openForMs =
    after.state === 'OPEN' && after.openUntil !== null ? Math.max(0, after.openUntil - now) : null;
  return { passed: after.state === 'CLOSED', stateAfter: after.state, openForMs };
}

/**
 * Sends one request pinned to `modelKey` (`fcm:@provider/model`: no failover) through the router, marked
 * as a test, so it takes the same path, gate and breaker bookkeeping as agent traffic. `before` is the
 * model's breaker state when the user asked; for an OPEN or HALF_OPEN model the router's state is read
 * back after the test, to say what the trial did. With `options.key` the request goes with that key only
 * (named by its fingerprint: the page never has a key).
 */
export async function testThroughRouter(
  modelKey: string,
  before: BreakerStateName | null = null,
  { key = null, now = () => performance.now() }: TestOptions = {},
): Promise<ModelTestResult> {
  const started = now();
  let response: Response;
  try {
    response = await fetch('/v1/chat/completions', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${PLACEHOLDER_KEY}`,
        'x-fcm-token': routerToken(),
        ...TEST_SOURCE_HEADER,
        ...(key === null ? {} : { [TEST_KEY_HEADER]: key }),
      },
      body: JSON.stringify({
        model: `fcm:@${modelKey}`,
        messages: PROBE_MESSAGES,
        max_tokens: 80,
        temperature: 0,
        stream: false,
      }),
      signal: AbortSignal.timeout(60_000),
    });
  } catch {
    return {
      ok: false,
      status: 0,
      attempted: false,
      providerStatus: null,
      latencyMs: now() - started,
      verdict: 'unreachable',
      message: null,
      trial: null,
      key,
    };
  }
  // The body is read only to end the exchange and to get an error's code; its content is never kept.
  const text = await response.text().catch(() => '');
  const latencyMs = now() - started;
  const trial = await readTrial(modelKey, before);
  const decision = parseDecision(response.headers.get('x-fcm-v2-decision'));
  // The decision header names each attempt's upstream status, or its failure kind when there was none.
  const lastResult = decision?.attempts.at(-1)?.result;
  const attempted = lastResult !== undefined;
  const providerStatus = lastResult && /^\d+$/.test(lastResult) ? Number(lastResult) : null;
  const answer = { status: response.status, attempted, providerStatus, latencyMs, trial, key };
  if (response.ok) return { ...answer, ok: true, verdict: 'served', message: null };
  let code: string | null = null;
  let message: string | null = null;
  try {
    const body = JSON.parse(text) as Partial<ErrorResponse>;
    code = body.error?.code ?? null;
    message = body.error?.message ?? null;
  } catch {
    // Not JSON: the status alone is the verdict.
  }
  const kind = attempted && providerStatus === null ? lastResult : null;
  return { ...answer, ok: false, verdict: kind ?? code ?? `HTTP ${response.status}`, message };
}

async function readTrial(modelKey: string, before: BreakerStateName | null): Promise<TrialOutcome | null> {
  if (before !== 'OPEN' && before !== 'HALF_OPEN') return null;
  const state = await api.state().catch(() => null);
  return trialOutcome(
    before,
    state?.models.find((m) => m.key === modelKey),
    Date.now(),
  );
}
