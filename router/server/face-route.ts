import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Answer } from '../engine/answer/answer.js';
import type { AnswerEncoder } from '../faces/answer-encoder.js';
import { pickRequestId } from '../engine/answer/request-trace.js';
import { clientError } from '../engine/answer/final-answer.js';
import type { ChatRequest, RequestSource } from '../engine/routing/route-context.js';
import { ChatEncoder } from '../faces/chat-face.js';
import type { BeforeRoutingRefusal, RouterEngine } from '../engine/router-engine.js';
import type { ReasoningEffort } from '../faces/chat-request.js';
import { estimateNeeds, SMALL_REQUEST } from '../faces/request-size.js';
import { isRecord, parseJson } from '../gate/safe-json.js';
import { ClientGone } from '../upstream/attempt-guard.js';
import { clientToken, isJsonContentType } from './guards.js';
import { decodeBody } from './body-encoding.js';
import {
  dropUnreadBody,
  exceedsJsonDepth,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  readBody,
  cutAtDeadline,
} from './request-body.js';
import { conversationOf, sessionOf } from './session-id.js';

/** Longest accepted `model` name (history entries allow 500 characters per name). */
export const MAX_MODEL_NAME = 300;

/** A face's reading of an agent's request: the chat-completions body to route, or the field at fault. */
export type FaceTranslation<T> =
  | {
      ok: true;
      chat: Record<string, unknown>;
      stream: boolean;
      model: string;
      extra: T;
      /** The reasoning effort asked for, for the models that take `reasoning_effort` (else null). */
      effort?: ReasoningEffort | null;
      /** Characters of the agent's body that no upstream is sent (earlier turns' reasoning). */
      unsentChars: number;
    }
  | { ok: false; message: string; param: string | null };

/** One protocol an agent may speak: how its requests are read and its answers written. */
export interface FaceSpec<T> {
  /** Translates the agent's body (a JSON object, depth-checked) into one chat-completions request. */
  translate(body: Record<string, unknown>): FaceTranslation<T>;
  /**
   * The request's encoder; `request` is null for a refusal before translation. Its `inputTokens` is the
   * router's one estimate of the request's input (`request-size.ts`), for a face that reports it.
   */
  encoder(request: { model: string; extra: T; inputTokens: number } | null): AnswerEncoder;
}

/** Each request's id once drawn: a late body's 408, written apart from its route, carries the same. */
const requestIds = new WeakMap<IncomingMessage, string>();

/** The agent's `x-request-id` when it is usable, else a fresh one; the same one each time for a request. */
export function requestIdOf(req: IncomingMessage): string {
  let id = requestIds.get(req);
  if (id === undefined) {
    id = pickRequestId(req.headers['x-request-id'] as string | undefined, randomUUID);
    requestIds.set(req, id);
  }
  return id;
}

/** What the dashboard's Test buttons mark their requests with; anything else is an agent. */
function sourceOf(req: IncomingMessage): RequestSource {
  return req.headers['x-fcm-source'] === 'test' ? 'test' : 'agent';
}

/** Longest fingerprint a test may name (they are far shorter): anything longer names no key. */
const MAX_FINGERPRINT = 64;

/**
 * The key a dashboard test of one key names by its fingerprint (`x-fcm-key-fingerprint`), or null. Only a
 * test may name one: an agent's requests use the provider's keys in turn. A key itself never comes this way.
 */
function testKeyOf(req: IncomingMessage, source: RequestSource): string | null {
  if (source !== 'test') return null;
  const named = req.headers['x-fcm-key-fingerprint'];
  return typeof named === 'string' && named !== '' && named.length <= MAX_FINGERPRINT ? named : null;
}

/** How a route refuses a request before routing it (and, on a face, records it). */
export type RefuseRequest = (refusal: BeforeRoutingRefusal) => void;

/** What a body cut at its deadline was answered (on the socket, by the server): for its record. */
const LATE_BODY = clientError(408, 'request_timeout', 'fcm-router: the request body did not arrive in time');

/**
 * Reads a face's JSON body: 415 for another content type, 413 over the size limit, 400 for bad JSON, a
 * non-object or nesting past `MAX_JSON_DEPTH`; the refusal is made with `refuse` (a body cut at its
 * deadline, answered 408 already, is passed to it as answered). Null when refused or the client left; else
 * the body and its length in bytes (what the size estimate counts on).
 */
export async function readFaceBody(
  req: IncomingMessage,
  res: ServerResponse,
  refuse: RefuseRequest,
): Promise<{ body: Record<string, unknown>; bytes: number } | null> {
  const bad = (
    message: string,
    status = 400,
    code = 'invalid_request',
    headers?: Record<string, string>,
  ): null => {
    refuse({ error: clientError(status, code, message), headers });
    return null;
  };
  if (!isJsonContentType(req.headers['content-type'])) {
    const message = 'fcm-router: send the request body as application/json';
    return bad(message, 415, 'unsupported_media_type', dropUnreadBody(req));
  }
  const read = await readBody(req);
  if (!read.ok) {
    if (read.reason === 'too_large')
      return bad('fcm-router: request body is over 10 MiB', 413, 'request_too_large', {
        connection: 'close',
      });
    res.destroy();
    if (cutAtDeadline(req)) refuse({ error: LATE_BODY, answered: true });
    return null;
  }
  let bytes = read.body;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined) {
    const decoded = await decodeBody(bytes, encoding, MAX_BODY_BYTES);
    if (!decoded.ok)
      return bad(`fcm-router: ${decoded.message}`, decoded.status, DECODE_CODES[decoded.status]);
    bytes = decoded.body;
  }
  // Before parsing: parsing a deeply nested body would hold the event loop for seconds.
  if (exceedsJsonDepth(bytes))
    return bad(`fcm-router: request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  const parsed = parseJson(bytes.toString('utf8'));
  if (!parsed.ok)
    return bad(`fcm-router: request body is not valid JSON (${parsed.error})`, 400, 'invalid_json');
  const body = parsed.value;
  if (!isRecord(body)) return bad('fcm-router: request body must be a JSON object');
  return { body, bytes: bytes.length };
}

/** The error code of each refusal of a compressed body. */
const DECODE_CODES = {
  400: 'invalid_request',
  413: 'request_too_large',
  415: 'unsupported_media_type',
} as const;

/** The chat request and its answer, once the face has read and translated the agent's body. */
interface Prepared {
  chat: ChatRequest;
  answer: Answer;
}

/** What is known of a request whose body was not read: nothing of it. */
const NO_BODY = { body: {}, bytes: 0 };

/**
 * What a request is known as before its body is read: its id, where it came from, its session by header.
 * For the record of a refusal before routing.
 */
export function headFacts(req: IncomingMessage, requestId: string): ChatRequest {
  return requestFacts(req, requestId, NO_BODY);
}

/** What a request is known as before its translation: its id, the raw body's model, where it came from. */
function requestFacts(
  req: IncomingMessage,
  requestId: string,
  read: { body: Record<string, unknown>; bytes: number },
): ChatRequest {
  const { body } = read;
  const model = typeof body.model === 'string' && body.model.length > 0 ? body.model : 'fcm';
  const source = sourceOf(req);
  return {
    requestId,
    modelRequested: model.length > MAX_MODEL_NAME ? 'fcm' : model,
    body,
    stream: body.stream === true,
    clientHeaders: {},
    client: clientToken(req.headers['user-agent']),
    source,
    clientGone: new ClientGone(),
    needs: SMALL_REQUEST,
    session: sessionOf(req.headers, body),
    opensConversation: false,
    testKey: testKeyOf(req, source),
  };
}

/** Translates `body` on `face` into the request to route and its answer; null when it was refused (400). */
function prepare<T>(
  face: FaceSpec<T>,
  req: IncomingMessage,
  res: ServerResponse,
  read: { facts: ChatRequest; bytes: number },
  refuse: RefuseRequest,
): Prepared | null {
  const { facts, bytes } = read;
  const request = face.translate(facts.body);
  if (!request.ok) {
    refuse({ error: clientError(400, 'invalid_request', `fcm-router: ${request.message}`, request.param) });
    return null;
  }
  if (request.model.length > MAX_MODEL_NAME) {
    const message = `fcm-router: "model" is longer than ${MAX_MODEL_NAME} characters`;
    refuse({ error: clientError(400, 'invalid_request', message, 'model') });
    return null;
  }
  const { requestId } = facts;
  const needs = estimateNeeds(Math.max(0, bytes - request.unsentChars), request.chat);
  const encoder = face.encoder({ model: request.model, extra: request.extra, inputTokens: needs.input });
  const conversation = facts.session === null ? conversationOf(request.chat) : null;
  // Every field written out, not `{ ...facts, … }`: in Node 20's optimised code a spread copy that gets a
  // field of its own (`effort`) takes a new hidden class per request.
  const chat: ChatRequest = {
    requestId,
    modelRequested: request.model.length > 0 ? request.model : 'fcm',
    body: request.chat,
    stream: request.stream,
    // Only the few every face forwards reach a provider (`buildUpstreamHeaders`).
    clientHeaders: req.headers,
    client: facts.client,
    source: facts.source,
    clientGone: facts.clientGone,
    needs,
    session: facts.session ?? conversation?.id ?? null,
    opensConversation: conversation?.opens ?? false,
    effort: request.effort ?? null,
    testKey: facts.testKey ?? null,
  };
  return { chat, answer: new Answer(res, encoder, requestId) };
}

/**
 * A throw in the face's own code (its translator, its encoder): a local fault, contained as one in
 * routing is, answered in the face's error shape (OpenAI's when even its refusal encoder throws).
 */
function failLocally<T>(
  engine: RouterEngine,
  face: FaceSpec<T>,
  facts: ChatRequest,
  res: ServerResponse,
  error: unknown,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let encoder: AnswerEncoder;
  try {
    encoder = face.encoder(null);
  } catch {
    encoder = new ChatEncoder();
  }
  engine.failBeforeRouting(facts, new Answer(res, encoder, facts.requestId), error);
}

/**
 * Serves one agent request on `face`: reads and translates its body (refusals in the face's own error
 * shape, with decision headers), then hands the chat-completions request and its answer to the engine.
 * A throw in the face's code is answered as a local fault, never left to the server's catch-all.
 */
export async function handleFace<T>(
  engine: RouterEngine,
  face: FaceSpec<T>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const requestId = requestIdOf(req);
  let facts: ChatRequest | null = null;
  // Recorded as a refusal in routing is: with what is known of the request by then, never its body.
  const refuse: RefuseRequest = (refusal) => {
    facts ??= headFacts(req, requestId);
    engine.refuseBeforeRouting(facts, new Answer(res, face.encoder(null), requestId), refusal);
  };
  let prepared: Prepared | null;
  try {
    const read = await readFaceBody(req, res, refuse);
    if (read === null) return;
    facts = requestFacts(req, requestId, read);
    prepared = prepare(face, req, res, { facts, bytes: read.bytes }, refuse);
  } catch (error) {
    facts ??= headFacts(req, requestId);
    return failLocally(engine, face, facts, res, error);
  }
  if (prepared === null) return;
  const { chat, answer } = prepared;
  const onClose = (): void => {
    if (!res.writableFinished) chat.clientGone.markGone();
  };
  res.on('close', onClose);
  try {
    await engine.handleChat(chat, answer);
  } finally {
    res.off('close', onClose);
  }
}
