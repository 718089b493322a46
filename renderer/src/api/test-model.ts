import type { ErrorResponse } from '../../../router/api-types.js';
import { PLACEHOLDER_KEY } from '../lib/agent-snippets.js';
import { parseDecision } from '../lib/decision.js';
import { routerToken } from './token.js';

/** The verdict of one pinned request through the router. Holds no prompt or completion text. */
export interface ModelTestResult {
  ok: boolean;
  /** The HTTP status the router answered with; 0 when it could not be reached. */
  status: number;
  latencyMs: number;
  /** `served`, else the failure kind of the attempt or the router's error code. */
  verdict: string;
  /** The router's own error message (never upstream content). */
  message: string | null;
}

/** A fixed, cheap question: enough output for the content gate, little quota spent. */
const PROBE_MESSAGES = [{ role: 'user', content: 'Reply with the single word: ok' }];

/**
 * Sends one request pinned to `modelKey` (`fcm:@provider/model`: no failover) through the router, so the
 * test takes the same path, gate and breaker bookkeeping as agent traffic.
 */
export async function testThroughRouter(
  modelKey: string,
  now: () => number = () => performance.now(),
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
    return { ok: false, status: 0, latencyMs: now() - started, verdict: 'unreachable', message: null };
  }
  // The body is read only to end the exchange and to get an error's code; its content is never kept.
  const text = await response.text().catch(() => '');
  const latencyMs = now() - started;
  const decision = parseDecision(response.headers.get('x-fcm-v2-decision'));
  if (response.ok) return { ok: true, status: response.status, latencyMs, verdict: 'served', message: null };
  let code: string | null = null;
  let message: string | null = null;
  try {
    const body = JSON.parse(text) as Partial<ErrorResponse>;
    code = body.error?.code ?? null;
    message = body.error?.message ?? null;
  } catch {
    // Not JSON: the status alone is the verdict.
  }
  const lastResult = decision?.attempts.at(-1)?.result;
  const kind = lastResult && !/^\d+$/.test(lastResult) ? lastResult : null;
  return {
    ok: false,
    status: response.status,
    latencyMs,
    verdict: kind ?? code ?? `HTTP ${response.status}`,
    message,
  };
}
