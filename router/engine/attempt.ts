import type { IncomingHttpHeaders } from 'node:http';
import type { UsageView } from '../api-types.js';
import type { FailoverSettings } from '../config/schema.js';
import type { ResolvedModel, ResolvedProvider } from '../config/resolve-config.js';
import { classifyFailure, type Classification, type FailureInput } from '../gate/failure-classifier.js';
import { checkResponseBody } from '../gate/response-gate.js';
import { StreamTracker, type EndResult } from '../gate/stream-tracker.js';
import type { Clock } from '../state/clock.js';
import { AttemptGuard } from '../upstream/attempt-guard.js';
import type { BodyTemplate } from '../upstream/body-template.js';
import type { ClientGone } from '../upstream/client-gone.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { ChunkVerdict, UpstreamExchange } from '../upstream/upstream-exchange.js';
import { completionAsSse } from '../upstream/json-as-sse.js';
import { buildUpstreamHeaders } from '../upstream/upstream-headers.js';

/** Where a streamed answer goes once it has shown real content. */
export interface StreamSink {
  /** Writes the response head (200, SSE headers, decision headers as known now). */
  commit(): void;
  /** Writes bytes; returns a promise only when the client must drain first (backpressure). */
  write(chunk: Uint8Array): Promise<void> | undefined;
  /**
   * Ends the client's stream once the answer is whole: the client is done before the request's
   * bookkeeping (breaker, stats, history) runs, not after it.
   */
  end(): void;
}

export interface AttemptInput {
  model: ResolvedModel;
  provider: ResolvedProvider;
  body: BodyTemplate;
  clientHeaders: IncomingHttpHeaders;
  requestId: string;
  stream: boolean;
  failover: FailoverSettings;
  /** Epoch ms after which nothing may still be pending before the response is committed. */
  deadline: number;
  clock: Clock;
  /** Tells the attempt when the client disconnects. */
  client: ClientGone;
  upstream: UpstreamClient;
  sink: StreamSink;
}

export type AttemptResult =
  | {
      ok: true;
      status: number;
      latencyMs: number;
      usage: UsageView | null;
      /** The JSON answer to send (non-streamed); null when the stream was already written to the client. */
      json: { body: Buffer | string; contentType: string } | null;
    }
  | {
      ok: false;
      status: number | null;
      latencyMs: number;
      failure: Classification;
      /** Bytes already reached the client: no failover is possible any more. */
      committed: boolean;
    };

const MAX_JSON_BODY = 32 * 1024 * 1024;
/** Each provider's chat URL, built once: the same string object each time also keeps its hash. */
const chatUrls = new WeakMap<ResolvedProvider, string>();

function chatUrl(provider: ResolvedProvider): string {
  let url = chatUrls.get(provider);
  if (url === undefined) {
    url = `${provider.baseUrl}/chat/completions`;
    chatUrls.set(provider, url);
  }
  return url;
}
const SNIPPET_BYTES = 2048;
/** Shared: aborting an exchange that already finished is a no-op, so no error per attempt. */
const ATTEMPT_OVER = new Error('attempt over');

/**
 * One upstream try, from request to verdict: a non-2xx is classified by status, a 2xx JSON body goes
 * through the response gate, a stream is held by the tracker until real content (then committed and
 * piped) or failure. Every wait is bounded by the attempt's guard (deadlines and the client's disconnect).
 */
export async function runAttempt(input: AttemptInput): Promise<AttemptResult> {
  const { clock, failover } = input;
  const started = clock();
  const guard = new AttemptGuard(input.client, input.deadline - started);
  guard.phase('timeout', failover.requestTimeoutMs);
  let committed = false;
  let status: number | null = null;

  const fail = (failureInput: FailureInput): AttemptResult => ({
    ok: false,
    status,
    latencyMs: clock() - started,
    failure: classifyFailure(failureInput, clock()),
    committed,
  });

  let exchange: UpstreamExchange | null = null;
  try {
    exchange = input.upstream.open({
      providerId: input.provider.id,
      url: chatUrl(input.provider),
      headers: buildUpstreamHeaders(input.clientHeaders, {
        apiKey: input.provider.apiKey,
        providerHeaders: input.provider.headers,
        requestId: input.requestId,
        stream: input.stream,
      }),
      body: input.body.forModel(input.model.upstreamModelId, input.provider.bodyPreset),
    });
    guard.bind(exchange);
    const head = await exchange.head();
    status = head.status;
    if (status < 200 || status >= 300) {
      guard.phase('body_timeout', failover.bodyReadTimeoutMs);
      const snippet = await exchange.readSnippet(SNIPPET_BYTES);
      return fail({ type: 'http', status, retryAfter: head.retryAfter, bodySnippet: snippet });
    }
    const { contentType } = head;
    if (input.stream && contentType !== null && /text\/event-stream/i.test(contentType)) {
      return await pipeStream(input, exchange, status, guard, started, (value) => (committed = value), fail);
    }
    guard.phase('body_timeout', failover.bodyReadTimeoutMs);
    const body = await exchange.readAll(MAX_JSON_BODY);
    if (body === null)
      return fail({ type: 'content', kind: 'invalid_json', errorCode: null, detail: 'body too large' });
    const text = body.toString('utf8');
    const verdict = checkResponseBody(text, contentType, failover.contentValidation);
    if (!verdict.ok)
      return fail({
        type: 'content',
        kind: verdict.kind,
        errorCode: verdict.errorCode,
        detail: verdict.detail,
      });
    const replay = input.stream ? completionAsSse(verdict.rewritten ?? text) : null;
    if (replay !== null) {
      // The provider ignored `stream: true`; the client still gets the stream it asked for.
      guard.endBudget();
      guard.clearPhase();
      const latencyMs = clock() - started;
      committed = true;
      input.sink.commit();
      const drained = input.sink.write(Buffer.from(replay));
      if (drained) await drained;
      input.sink.end();
      return { ok: true, status, latencyMs, usage: verdict.usage, json: null };
    }
    return {
      ok: true,
      status,
      latencyMs: clock() - started,
      usage: verdict.usage,
      json: { body: verdict.rewritten ?? body, contentType: 'application/json' },
    };
  } catch {
    return fail({ type: 'transport', kind: guard.kind ?? 'network_error' });
  } finally {
    guard.dispose();
    // A body nobody read any more (an unexpected throw) must not keep its socket.
    exchange?.abort(ATTEMPT_OVER);
  }
}

/** Holds the stream until the tracker sees real content, then commits and pipes the rest byte for byte. */
async function pipeStream(
  input: AttemptInput,
  exchange: UpstreamExchange,
  status: number,
  guard: AttemptGuard,
  started: number,
  setCommitted: (value: boolean) => void,
  fail: (failureInput: FailureInput) => AttemptResult,
): Promise<AttemptResult> {
  const tracker = new StreamTracker({ holdLimitBytes: input.failover.holdBufferBytes });
  const idleMs = input.failover.streamIdleTimeoutMs;
  guard.phase('stream_stall', idleMs);
  let committed = false;
  let latencyMs = 0;
  /** Set when a chunk ends the attempt; the stream is cut after it. */
  let outcome: FailureInput | null = null;
  /** The client's drain the last forwarded bytes wait on (awaited before the attempt returns). */
  let pending: Promise<void> | undefined;
  const commit = (): void => {
    guard.endBudget();
    committed = true;
    setCommitted(true);
    latencyMs = input.clock() - started;
    input.sink.commit();
  };
  // A slow client is not a stalled upstream: the idle limit is off while we wait for the client to drain.
  const forward = (bytes: Uint8Array | null): Promise<void> | undefined => {
    if (!bytes || bytes.byteLength === 0) return undefined;
    const drained = input.sink.write(bytes);
    if (!drained) return undefined;
    guard.clearPhase();
    pending = drained.then(() => guard.phase('stream_stall', idleMs));
    return pending;
  };
  const stop = (failure: FailureInput): false => {
    outcome = failure;
    return false;
  };
  const onChunk = (chunk: Buffer): ChunkVerdict => {
    guard.touch();
    if (committed) {
      const passed = tracker.pass(chunk);
      const wait = forward(passed.forward);
      return passed.failure ? stop({ type: 'transport', kind: 'mid_stream_error' }) : wait;
    }
    const signal = tracker.hold(chunk);
    if (signal.type === 'pending') return undefined;
    if (signal.type === 'failure')
      return stop({ type: 'content', kind: signal.kind, errorCode: signal.errorCode, detail: signal.detail });
    // Real content (or a stream too strange to judge within the hold cap): commit to this model.
    commit();
    const first = tracker.commit();
    const wait = forward(first.forward);
    return first.failure ? stop({ type: 'transport', kind: 'mid_stream_error' }) : wait;
  };

  /** The last line's verdict, once the body has ended. */
  let last: EndResult | null = null;
  /** Judges and forwards the last line; a clean answer's stream is ended here, before any bookkeeping. */
  const finish = (): EndResult => {
    if (last) return last;
    last = tracker.end();
    // The only content may sit in a last line with no newline after it: still a real answer.
    if (!committed && !last.failure && last.forward) commit();
    if (!committed) return last;
    const wait = forward(last.forward);
    if (!last.midStreamFailure) {
      if (wait) void wait.then(() => input.sink.end());
      else input.sink.end();
    }
    return last;
  };

  await exchange.stream(onChunk, finish);
  if (pending) await pending;
  if (outcome) return fail(outcome);
  const end = finish();
  if (!committed)
    return fail({
      type: 'content',
      kind: 'empty_stream',
      errorCode: null,
      detail: 'stream ended before content',
    });
  if (pending) await pending;
  if (end.midStreamFailure) return fail({ type: 'transport', kind: 'mid_stream_error' });
  return { ok: true, status, latencyMs, usage: tracker.usage(), json: null };
}
