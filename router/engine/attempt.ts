import type { IncomingHttpHeaders } from 'node:http';
import type { UsageView } from '../api-types.js';
import type { FailoverSettings } from '../config/schema.js';
import type { ResolvedModel, ResolvedProvider } from '../config/resolve-config.js';
import { classifyFailure, type Classification, type FailureInput } from '../gate/failure-classifier.js';
import { checkResponseBody, type GateVerdict } from '../gate/response-gate.js';
import type { Clock } from '../state/clock.js';
import { AttemptGuard } from '../upstream/attempt-guard.js';
import type { BodyTemplate } from '../upstream/body-template.js';
import type { ClientGone } from '../upstream/client-gone.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { UpstreamExchange, UpstreamHead } from '../upstream/upstream-exchange.js';
import { completionAsSse } from '../upstream/json-as-sse.js';
import { buildUpstreamHeaders } from '../upstream/upstream-headers.js';
import { StreamAttempt, type StreamSink } from './stream-attempt.js';

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

/** A 2xx answer that is an SSE stream. */
function isSseAnswer(head: UpstreamHead): boolean {
  const { status, contentType } = head;
  return status >= 200 && status < 300 && contentType !== null && /text\/event-stream/i.test(contentType);
}

/** A whole 2xx body through the response gate. */
interface JudgedBody {
  body: Buffer;
  text: string;
  verdict: GateVerdict;
  latencyMs: number;
}

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
  let streamer: StreamAttempt | null = null;
  let status: number | null = null;

  const fail = (failureInput: FailureInput): AttemptResult => ({
    ok: false,
    status,
    latencyMs: clock() - started,
    failure: classifyFailure(failureInput, clock()),
    committed: committed || (streamer?.committed ?? false),
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
    const sent = exchange;
    // While the upstream works: what a served answer needs, and for a stream, its consumer, started at the
    // head so the first chunks are judged as they arrive.
    sent.whenSent(() => {
      if (input.stream) {
        streamer ??= new StreamAttempt(input, guard, started);
        streamer.startEarly(sent, isSseAnswer);
      }
      input.sink.prepare();
    });
    /** Judges a whole 2xx body; a JSON answer (not a stream's replay) that serves goes to the client now. */
    const judge = (body: Buffer, answer: UpstreamHead): JudgedBody => {
      const text = body.toString('utf8');
      const verdict = checkResponseBody(text, answer.contentType, failover.contentValidation);
      if (verdict.ok && !input.stream) input.sink.sendJson(answer.status, verdict.rewritten ?? body);
      return { body, text, verdict, latencyMs: clock() - started };
    };
    // A small JSON answer that came at once is judged, and sent, inside undici's end callback
    // (`whenWholeEarly`): the client is not kept waiting for undici's work after the response and two promise
    // turns. The code below then only collects what happened there.
    const early: { judged: JudgedBody | null } = { judged: null };
    if (!input.stream)
      exchange.whenWholeEarly((answer, body) => {
        if (answer.status >= 200 && answer.status < 300) early.judged = judge(body, answer);
      });
    const head = await exchange.head();
    status = head.status;
    if (status < 200 || status >= 300) {
      guard.phase('body_timeout', failover.bodyReadTimeoutMs);
      const snippet = await exchange.readSnippet(SNIPPET_BYTES);
      return fail({ type: 'http', status, retryAfter: head.retryAfter, bodySnippet: snippet });
    }
    if (input.stream && isSseAnswer(head)) {
      streamer ??= new StreamAttempt(input, guard, started);
      const outcome = await streamer.run(exchange);
      if (!outcome.ok) return fail(outcome.failure);
      return { ok: true, status, latencyMs: outcome.latencyMs, usage: outcome.usage };
    }
    let judged = early.judged;
    if (judged === null) {
      guard.phase('body_timeout', failover.bodyReadTimeoutMs);
      const body = await exchange.readAll(MAX_JSON_BODY);
      if (body === null)
        return fail({ type: 'content', kind: 'invalid_json', errorCode: null, detail: 'body too large' });
      judged = judge(body, head);
    }
    const { verdict, text, body } = judged;
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
      return { ok: true, status, latencyMs, usage: verdict.usage };
    }
    // A stream was asked for and the answer is JSON but no completion to replay: it is passed on as it came.
    if (input.stream) input.sink.sendJson(status, verdict.rewritten ?? body);
    return { ok: true, status, latencyMs: judged.latencyMs, usage: verdict.usage };
  } catch {
    return fail({ type: 'transport', kind: guard.kind ?? 'network_error' });
  } finally {
    guard.dispose();
    // A body nobody read any more (an unexpected throw) must not keep its socket.
    exchange?.abort(ATTEMPT_OVER);
  }
}
