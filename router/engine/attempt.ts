import type { IncomingHttpHeaders } from 'node:http';
import type { UsageView } from '../api-types.js';
import type { FailoverSettings } from '../config/schema.js';
import type { ResolvedModel, ResolvedProvider } from '../config/resolve-config.js';
import { classifyFailure, type Classification, type FailureInput } from '../gate/failure-classifier.js';
import { checkResponseBody } from '../gate/response-gate.js';
import { StreamTracker } from '../gate/stream-tracker.js';
import type { Clock } from '../state/clock.js';
import { AttemptSignal } from '../upstream/attempt-signal.js';
import type { BodyTemplate } from '../upstream/body-template.js';
import { readBounded, readSnippet } from '../upstream/read-bounded.js';
import type { UpstreamClient, UpstreamReply } from '../upstream/upstream-client.js';
import { completionAsSse } from '../upstream/json-as-sse.js';
import { buildUpstreamHeaders } from '../upstream/upstream-headers.js';

/** Where a streamed answer goes once it has shown real content. */
export interface StreamSink {
  /** Writes the response head (200, SSE headers, decision headers as known now). */
  commit(): void;
  /** Writes bytes; returns a promise only when the client must drain first (backpressure). */
  write(chunk: Uint8Array): Promise<void> | undefined;
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
  clientSignal: AbortSignal;
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
const SNIPPET_BYTES = 2048;

function header(headers: UpstreamReply['headers'], name: string): string | null {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * One upstream try, from request to verdict: a non-2xx is classified by status, a 2xx JSON body goes
 * through the response gate, a stream is held by the tracker until real content (then committed and
 * piped) or failure. Every wait is bounded by the attempt's single AbortSignal.
 */
export async function runAttempt(input: AttemptInput): Promise<AttemptResult> {
  const { clock, failover } = input;
  const started = clock();
  const guard = new AttemptSignal(input.clientSignal);
  guard.arm('budget', input.deadline - started, 'budget_exhausted');
  guard.arm('headers', failover.requestTimeoutMs, 'timeout');
  let committed = false;
  let status: number | null = null;

  const fail = (failureInput: FailureInput): AttemptResult => ({
    ok: false,
    status,
    latencyMs: clock() - started,
    failure: classifyFailure(failureInput, clock()),
    committed,
  });

  try {
    const reply = await input.upstream.send({
      providerId: input.provider.id,
      url: `${input.provider.baseUrl}/chat/completions`,
      headers: buildUpstreamHeaders(input.clientHeaders, {
        apiKey: input.provider.apiKey,
        providerHeaders: input.provider.headers,
        requestId: input.requestId,
        stream: input.stream,
      }),
      body: input.body.forModel(input.model.upstreamModelId, input.provider.bodyPreset),
      signal: guard.signal,
    });
    guard.disarm('headers');
    status = reply.status;
    if (status < 200 || status >= 300) {
      guard.arm('body', failover.bodyReadTimeoutMs, 'body_timeout');
      const snippet = await readSnippet(reply.body, SNIPPET_BYTES);
      return fail({
        type: 'http',
        status,
        retryAfter: header(reply.headers, 'retry-after'),
        bodySnippet: snippet,
      });
    }
    const contentType = header(reply.headers, 'content-type');
    if (input.stream && contentType !== null && /text\/event-stream/i.test(contentType)) {
      return await pipeStream(input, reply, guard, started, (value) => (committed = value), fail);
    }
    guard.arm('body', failover.bodyReadTimeoutMs, 'body_timeout');
    const body = await readBounded(reply.body, MAX_JSON_BODY);
    if (body === null) {
      reply.body.destroy();
      return fail({ type: 'content', kind: 'invalid_json', errorCode: null, detail: 'body too large' });
    }
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
      guard.disarm('budget');
      const latencyMs = clock() - started;
      committed = true;
      input.sink.commit();
      const drained = input.sink.write(Buffer.from(replay));
      if (drained) await drained;
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
  }
}

/** Holds the stream until the tracker sees real content, then commits and pipes the rest byte for byte. */
async function pipeStream(
  input: AttemptInput,
  reply: UpstreamReply,
  guard: AttemptSignal,
  started: number,
  setCommitted: (value: boolean) => void,
  fail: (failureInput: FailureInput) => AttemptResult,
): Promise<AttemptResult> {
  const tracker = new StreamTracker({ holdLimitBytes: input.failover.holdBufferBytes });
  guard.arm('idle', input.failover.streamIdleTimeoutMs, 'stream_stall');
  let committed = false;
  let latencyMs = 0;
  const stop = (): void => {
    reply.body.destroy();
  };
  // A slow client is not a stalled upstream: the idle timer pauses while we wait for the client to drain.
  const forward = async (bytes: Uint8Array | null): Promise<void> => {
    if (!bytes || bytes.byteLength === 0) return;
    const drained = input.sink.write(bytes);
    if (!drained) return;
    guard.disarm('idle');
    await drained;
    guard.arm('idle', input.failover.streamIdleTimeoutMs, 'stream_stall');
  };

  for await (const chunk of reply.body as AsyncIterable<Uint8Array>) {
    guard.refresh('idle');
    if (!committed) {
      const signal = tracker.hold(chunk);
      if (signal.type === 'pending') continue;
      if (signal.type === 'failure') {
        stop();
        return fail({
          type: 'content',
          kind: signal.kind,
          errorCode: signal.errorCode,
          detail: signal.detail,
        });
      }
      // Real content (or a stream too strange to judge within the hold cap): commit to this model.
      guard.disarm('budget');
      committed = true;
      setCommitted(true);
      latencyMs = input.clock() - started;
      input.sink.commit();
      const first = tracker.commit();
      await forward(first.forward);
      if (first.failure) {
        stop();
        return fail({ type: 'transport', kind: 'mid_stream_error' });
      }
      continue;
    }
    const passed = tracker.pass(chunk);
    await forward(passed.forward);
    if (passed.failure) {
      stop();
      return fail({ type: 'transport', kind: 'mid_stream_error' });
    }
  }
  const last = tracker.end();
  if (!committed) {
    if (last.failure || !last.forward)
      return fail({
        type: 'content',
        kind: 'empty_stream',
        errorCode: null,
        detail: 'stream ended before content',
      });
    // The only content sat in a last line with no newline after it: still a real answer.
    guard.disarm('budget');
    committed = true;
    setCommitted(true);
    latencyMs = input.clock() - started;
    input.sink.commit();
  }
  await forward(last.forward);
  if (last.midStreamFailure) return fail({ type: 'transport', kind: 'mid_stream_error' });
  return { ok: true, status: reply.status, latencyMs, usage: tracker.usage(), json: null };
}
