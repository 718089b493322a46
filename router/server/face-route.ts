import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Answer } from '../engine/answer.js';
import type { AnswerEncoder } from '../engine/answer-encoder.js';
import { pickRequestId } from '../engine/decision-header.js';
import { clientError, type ErrorAnswer } from '../engine/final-answer.js';
import type { RequestSource } from '../engine/route-context.js';
import type { RouterEngine } from '../engine/router-engine.js';
import type { ReasoningEffort } from '../faces/chat-request.js';
import { estimateNeeds } from '../faces/request-size.js';
import { isRecord, parseJson } from '../gate/safe-json.js';
import { ClientGone } from '../upstream/client-gone.js';
import { clientToken, isJsonContentType } from './guards.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';
import { readBody } from './read-body.js';
import { sessionOf } from './session-id.js';

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
    }
  | { ok: false; message: string; param: string | null };

/** One protocol an agent may speak: how its requests are read and its answers written. */
export interface FaceSpec<T> {
  /** Translates the agent's body (a JSON object, depth-checked) into one chat-completions request. */
  translate(body: Record<string, unknown>): FaceTranslation<T>;
  /** The request's encoder; `request` is null for a refusal before translation. */
  encoder(requestId: string, request: { model: string; extra: T } | null): AnswerEncoder;
  /** The agent's headers that may reach the upstream (its protocol's own headers never do). */
  upstreamHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders;
}

/** The agent's `x-request-id` when it is usable, else a fresh one. */
export function requestIdOf(req: IncomingMessage): string {
  return pickRequestId(req.headers['x-request-id'] as string | undefined, randomUUID);
}

/** What the dashboard's Test buttons mark their requests with; anything else is an agent. */
function sourceOf(req: IncomingMessage): RequestSource {
  return req.headers['x-fcm-source'] === 'test' ? 'test' : 'agent';
}

/**
 * Reads a face's JSON body: 415 for another content type, 413 over the size limit, 400 for bad JSON, a
 * non-object or nesting past `MAX_JSON_DEPTH`; the refusal is written with `refuse`. Null when refused; else
 * the body and its length in bytes (what the size estimate counts on).
 */
export async function readFaceBody(
  req: IncomingMessage,
  res: ServerResponse,
  refuse: (error: ErrorAnswer) => void,
): Promise<{ body: Record<string, unknown>; bytes: number } | null> {
  const bad = (message: string, status = 400, code = 'invalid_request'): null => {
    refuse(clientError(status, code, message));
    return null;
  };
  if (!isJsonContentType(req.headers['content-type'])) {
    req.resume();
    return bad('fcm-router: send the request body as application/json', 415, 'unsupported_media_type');
  }
  const read = await readBody(req);
  if (!read.ok) {
    if (read.reason === 'too_large')
      return bad('fcm-router: request body is over 10 MiB', 413, 'request_too_large');
    res.destroy();
    return null;
  }
  const parsed = parseJson(read.body.toString('utf8'));
  if (!parsed.ok)
    return bad(`fcm-router: request body is not valid JSON (${parsed.error})`, 400, 'invalid_json');
  const body = parsed.value;
  if (!isRecord(body)) return bad('fcm-router: request body must be a JSON object');
  if (exceedsJsonDepth(body))
    return bad(`fcm-router: request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  return { body, bytes: read.body.length };
}

/**
 * Serves one agent request on `face`: reads and translates its body (refusals in the face's own error
 * shape, with decision headers), then hands the chat-completions request and its answer to the engine.
 */
export async function handleFace<T>(
  engine: RouterEngine,
  face: FaceSpec<T>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const requestId = requestIdOf(req);
  const refuse = (error: ErrorAnswer): void => {
    const extra = error.status === 413 ? { connection: 'close' } : undefined;
    new Answer(res, face.encoder(requestId, null), requestId).refuse(error, 'rejected', extra);
  };
  const read = await readFaceBody(req, res, refuse);
  if (read === null) return;
  const request = face.translate(read.body);
  if (!request.ok) {
    return refuse(clientError(400, 'invalid_request', `fcm-router: ${request.message}`, request.param));
  }
  if (request.model.length > MAX_MODEL_NAME) {
    const message = `fcm-router: "model" is longer than ${MAX_MODEL_NAME} characters`;
    return refuse(clientError(400, 'invalid_request', message, 'model'));
  }
  const answer = new Answer(
    res,
    face.encoder(requestId, { model: request.model, extra: request.extra }),
    requestId,
  );
  const clientGone = new ClientGone();
  const onClose = (): void => {
    if (!res.writableFinished) clientGone.markGone();
  };
  res.on('close', onClose);
  try {
    await engine.handleChat(
      {
        requestId,
        modelRequested: request.model.length > 0 ? request.model : 'fcm',
        body: request.chat,
        stream: request.stream,
        clientHeaders: face.upstreamHeaders(req.headers),
        client: clientToken(req.headers['user-agent']),
        source: sourceOf(req),
        clientGone,
        needs: estimateNeeds(read.bytes, request.chat),
        session: sessionOf(req.headers, read.body),
        effort: request.effort ?? null,
      },
      answer,
    );
  } finally {
    res.off('close', onClose);
  }
}
