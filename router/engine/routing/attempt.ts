import type { IncomingHttpHeaders } from 'node:http';
import type { UsageView } from '../../api-types.js';
import type { FailoverSettings } from '../../config/schema.js';
import type { ResolvedModel, ResolvedProvider } from '../../config/resolve-config.js';
import { classifyFailure, type Classification, type FailureInput } from '../../gate/failure-classifier.js';
import {
  checkCompletion,
  checkResponseBody,
  type GateAsks,
  type GateFailure,
  type GateVerdict,
} from '../../gate/response-gate.js';
import { attemptSecrets, withoutSecrets } from '../../gate/refusal-words.js';
import type { Clock } from '../../state/clock.js';
import { AttemptGuard, type AbortKind, type ClientGone } from '../../upstream/attempt-guard.js';
import type { BodyTemplate } from '../../upstream/body-template.js';
import type { ThoughtSignatures } from '../../upstream/thought-signatures.js';
import type { DeadlineWatch } from '../../upstream/deadline-watch.js';
import { isAttemptAbort, isLocalFault, LocalFault } from '../../upstream/exchange-errors.js';
import { completionFrames } from '../../upstream/json-as-sse.js';
import { isProxyRefusal } from '../../upstream/outbound-proxy.js';
import { foldStream, isEventStreamType, isSseBody } from '../../upstream/sse-as-json.js';
import type { UpstreamClient } from '../../upstream/upstream-client.js';
import type {
  BodyPlan,
  ChunkVerdict,
  ExchangeHandler,
  UpstreamExchange,
  UpstreamHead,
} from '../../upstream/upstream-exchange.js';
import { buildUpstreamHeaders, type RateLimitHints } from '../../upstream/upstream-headers.js';
import type { AnswerSink } from '../answer/answer.js';
import { StreamRelay, type StreamOutcome } from '../stream/stream-relay.js';
import type { ShapingRules } from '../stream/shaping-rules.js';

export interface AttemptInput {
  model: ResolvedModel;
  provider: ResolvedProvider;
  /** The provider's key this attempt is made with, or null for none. */
  apiKey: string | null;
  body: BodyTemplate;
  clientHeaders: IncomingHttpHeaders;
  requestId: string;
  stream: boolean;
  failover: FailoverSettings;
  /** Epoch ms after which nothing may still be pending before the answer is committed. */
  deadline: number;
  clock: Clock;
  deadlines: DeadlineWatch;
  /** Tells the attempt when the client disconnects. */
  client: ClientGone;
  upstream: UpstreamClient;
  /** Where what passes the gate goes; the attempt never writes headers itself. */
  answer: AnswerSink;
  /** What the gate holds a whole answer to besides the mode: the offered tools' names, a probe's cut answer. */
  gate: GateAsks;
  /** Where the thought signatures of an answer's tool calls are remembered, and read for Google's body. */
  signatures: ThoughtSignatures;
  /** How a stream is shaped after the gate (tool calls held and checked, a continuation trimmed). */
  shaping: () => ShapingRules;
  /** Handed the attempt's stop, for a hedged race that may end it early (before it has started, too). */
  stoppable?: (stop: (kind: AbortKind) => void) => void;
}

/**
 * One attempt's verdict. `failed` carries whether the answer was already committed to it; each carries
 * what the provider's head said of its rate limits.
 */
export type AttemptVerdict = VerdictOf & { rateLimit?: RateLimitHints | null };

type VerdictOf =
  | {
      type: 'served';
      status: number;
      latencyMs: number;
      usage: UsageView | null;
      /** Tool calls were read from the answer's text (the attempt's record says so). */
      callsFromText?: true;
    }
  | {
      type: 'failed';
      status: number | null;
      latencyMs: number;
      failure: Classification;
      /** Bytes already reached the client: no failover is possible any more. */
      committed: boolean;
      /** The request went out to the provider; false when it never left the machine (see `UpstreamExchange.sent`). */
      sent: boolean;
    }
  /** The router's own code threw: nobody's health is at stake. */
  | {
      type: 'fault';
      status: number | null;
      latencyMs: number;
      fault: LocalFault;
      committed: boolean;
      sent: boolean;
    };

/** A served verdict's mark that its calls were read from the text, when they were. */
const fromText = (read: boolean): { callsFromText?: true } => (read ? { callsFromText: true } : {});

const MAX_JSON_BODY = 32 * 1024 * 1024;
const SNIPPET_BYTES = 2048;
/** Each provider's chat URL, built once. */
const chatUrls = new WeakMap<ResolvedProvider, string>();

function chatUrl(provider: ResolvedProvider): string {
  let url = chatUrls.get(provider);
  if (url === undefined) {
    url = `${provider.baseUrl}/chat/completions`;
    chatUrls.set(provider, url);
  }
  return url;
}

type GatePass = Extract<GateVerdict, { ok: true }>;

/**
 * One upstream try, from request to verdict: a non-2xx is classified by its status, a 2xx JSON body goes
 * through the response gate, a stream through the hold buffer (`StreamRelay`). What passes goes to the
 * answer as it passes. Every wait is bounded by the attempt's guard (deadlines, the client's disconnect).
 */
export function runAttempt(input: AttemptInput): Promise<AttemptVerdict> {
  return new Promise((resolve) => new Attempt(input, resolve).start());
}

/** The exchange's one handler: each callback moves the attempt on; `#settle` ends it once. */
class Attempt implements ExchangeHandler {
  readonly #input: AttemptInput;
  readonly #resolve: (verdict: AttemptVerdict) => void;
  readonly #started: number;
  readonly #guard: AttemptGuard;
  #exchange: UpstreamExchange | null = null;
  #head: UpstreamHead | null = null;
  #relay: StreamRelay | null = null;
  #settled = false;

  constructor(input: AttemptInput, resolve: (verdict: AttemptVerdict) => void) {
    this.#input = input;
    this.#resolve = resolve;
    this.#started = input.clock();
    this.#guard = new AttemptGuard(input.client, input.deadline - this.#started, input.deadlines);
    input.stoppable?.((kind) => this.#guard.abort(kind));
  }

  start(): void {
    const { provider, model, failover } = this.#input;
    try {
      this.#guard.phase('timeout', failover.requestTimeoutMs);
      const call = {
        providerId: provider.id,
        url: chatUrl(provider),
        headers: buildUpstreamHeaders(this.#input.clientHeaders, {
          apiKey: this.#input.apiKey,
          providerHeaders: provider.headers,
          requestId: this.#input.requestId,
          stream: this.#input.stream,
        }),
        body: this.#input.body.forModel(model.upstreamModelId, model.bodyPreset, this.#input.signatures),
      };
      this.#exchange = this.#input.upstream.open(call, this);
      this.#guard.bind(this.#exchange);
    } catch (error) {
      this.onError(new LocalFault(error));
    }
  }

  onHead(head: UpstreamHead): BodyPlan {
    this.#head = head;
    const { failover, stream } = this.#input;
    if (head.status < 200 || head.status >= 300) {
      this.#guard.phase('body_timeout', failover.bodyReadTimeoutMs);
      return { type: 'snippet', limit: SNIPPET_BYTES };
    }
    if (stream && isEventStreamType(head.contentType)) {
      this.#relay = this.#newRelay();
      return { type: 'stream' };
    }
    this.#guard.phase('body_timeout', failover.bodyReadTimeoutMs);
    return { type: 'whole', limit: MAX_JSON_BODY };
  }

  onSnippet(text: string): void {
    const head = this.#head as UpstreamHead;
    // The secrets blotted out before anything reads the body: a refusal's words may reach the client, and
    // they are cut to length after, which must not leave half a key (the words are blotted again in `#fail`).
    const bodySnippet = withoutSecrets(text, this.#secrets());
    this.#fail({ type: 'http', status: head.status, retryAfter: head.retryAfter, bodySnippet });
  }

  /** The one place a whole 2xx body is judged; what passes is sent at once. */
  onWhole(body: Buffer | null): void {
    if (body === null)
      return this.#fail({ type: 'content', kind: 'invalid_json', errorCode: null, detail: 'body too large' });
    const head = this.#head as UpstreamHead;
    if (isSseBody(head.contentType, body)) return this.#wholeStream(body);
    const text = body.toString('utf8');
    const { failover, gate } = this.#input;
    const verdict = checkResponseBody(text, head.contentType, failover.contentValidation, gate);
    if (!verdict.ok) return this.#gateFailed(verdict);
    this.#passed(verdict, body, body);
  }

  /**
   * A stream read whole: the provider streamed though the request asked for one JSON answer (or streamed
   * under another content type). It is folded into the completion it stands for, which the gate judges as
   * any JSON answer.
   */
  #wholeStream(body: Buffer): void {
    const folded = foldStream(body, this.#input.clock());
    if (!folded.ok) return this.#fail(folded.failure);
    const { failover, gate } = this.#input;
    const verdict = checkCompletion(folded.completion, failover.contentValidation, gate);
    if (!verdict.ok) return this.#gateFailed(verdict);
    this.#passed(verdict, body, null);
  }

  /**
   * A whole answer that passed the gate, in the form the client asked for. A provider that ignored
   * `stream: true` is replayed as the stream it stands for, made from the object the gate judged (nothing
   * is read again); else it goes as JSON: `json`, the upstream's own bytes, when they were that JSON.
   */
  #passed(verdict: GatePass, body: Buffer, json: Buffer | null): void {
    const frames = this.#input.stream ? completionFrames(verdict.body, this.#input.clock()) : null;
    if (frames !== null) {
      this.#relay = this.#newRelay();
      const outcome = this.#relay.replay({ frames, bytes: body.byteLength, usage: verdict.usage });
      return this.#streamEnded(outcome, verdict.callsFromText);
    }
    this.#serveWhole(verdict, verdict.rewritten ?? json ?? JSON.stringify(verdict.body));
  }

  #gateFailed({ kind, errorCode, detail }: GateFailure): void {
    this.#fail({ type: 'content', kind, errorCode, detail });
  }

  /** A whole answer that passed the gate goes to the client as `text`, the JSON it is. */
  #serveWhole(verdict: GatePass, text: Buffer | string): void {
    const { status } = this.#head as UpstreamHead;
    const latencyMs = this.#elapsed();
    this.#guard.endBudget();
    this.#input.signatures.rememberAnswer(verdict.body);
    this.#input.answer.serveJson(status, { text, body: verdict.body });
    this.#settle({
      type: 'served',
      status,
      latencyMs,
      usage: verdict.usage,
      ...fromText(verdict.callsFromText),
    });
  }

  #newRelay(): StreamRelay {
    const { failover, answer, shaping } = this.#input;
    const over = (): void => this.onStreamEnd();
    const relay = { failover, guard: this.#guard, answer, elapsed: this.#elapsed, shaping: shaping(), over };
    return new StreamRelay(relay);
  }

  onChunk(chunk: Buffer): ChunkVerdict {
    const relay = this.#relay as StreamRelay;
    const verdict = relay.onChunk(chunk);
    if (verdict === false && relay.stopped) this.#fail(relay.stopped);
    if (verdict === false || !relay.over) return verdict;
    // `[DONE]` ends the stream even when the upstream keeps its connection open (or sends comments after
    // it): it ends as at the close, and the upstream's request is let go.
    this.onStreamEnd();
    return false;
  }

  onStreamEnd(): void {
    this.#streamEnded((this.#relay as StreamRelay).onEnd());
  }

  /**
   * A stream (or a whole answer replayed as one) is over: served, or failed. `readFromText`: the gate read
   * the replayed answer's calls from its text.
   */
  #streamEnded(outcome: StreamOutcome, readFromText = false): void {
    if (!outcome.ok) return this.#fail(outcome.failure);
    const status = (this.#head as UpstreamHead).status;
    const { latencyMs, usage } = outcome;
    this.#settle({
      type: 'served',
      status,
      latencyMs,
      usage,
      ...fromText(readFromText || outcome.callsFromText),
    });
  }

  /** A network error, the guard's abort or a fault of the router's own code. */
  onError(error: Error): void {
    if (isLocalFault(error)) {
      const { status, latencyMs, committed, sent } = this.#facts();
      return this.#settle({ type: 'fault', status, latencyMs, fault: error, committed, sent });
    }
    const kind = isAttemptAbort(error)
      ? error.kind
      : isProxyRefusal(error)
        ? 'proxy_refused'
        : 'network_error';
    this.#fail({ type: 'transport', kind });
  }

  readonly #elapsed = (): number => this.#input.clock() - this.#started;

  #facts(): { status: number | null; latencyMs: number; committed: boolean; sent: boolean } {
    return {
      status: this.#head?.status ?? null,
      latencyMs: this.#elapsed(),
      // Any commit ends the request's chain, so a started answer is this attempt's (a hedged attempt's
      // handle is started only when the answer was committed to it).
      committed: this.#input.answer.started,
      sent: this.#exchange?.sent ?? false,
    };
  }

  #fail(input: FailureInput): void {
    if (this.#settled) return;
    const failure = classifyFailure(input, this.#input.clock());
    // Blotted again on the words as the client gets them: decoding JSON may restore a key the raw body
    // spelt otherwise (`\/` for `/`), which no search of the raw bytes finds.
    if (failure.said !== undefined) failure.said = withoutSecrets(failure.said, this.#secrets());
    const { status, latencyMs, committed, sent } = this.#facts();
    this.#settle({ type: 'failed', status, latencyMs, failure, committed, sent });
  }

  /** What the attempt sent the provider that a refusal's words must not quote back (failures only). */
  #secrets(): string[] {
    return attemptSecrets(this.#input.apiKey, this.#input.provider.headers);
  }

  #settle(verdict: AttemptVerdict): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#guard.dispose();
    // A body nobody reads any more must not keep its socket (a no-op once the exchange is over).
    this.#exchange?.abort(ATTEMPT_OVER);
    // Set on the verdict (a literal made for this call), not on a spread copy: in Node 20's optimised code a
    // copy that gets a field of its own takes a new hidden class on every call.
    verdict.rateLimit = this.#head?.rateLimit ?? null;
    this.#resolve(verdict);
  }
}

/** Shared: aborting an exchange that already finished is a no-op, so no error per attempt. */
const ATTEMPT_OVER = new Error('attempt over');
