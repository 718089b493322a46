import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pickRequestId } from '../engine/decision-header.js';
import { Answer } from '../engine/answer.js';
import { decisionHeaders, RequestTrace } from '../engine/request-trace.js';
import type { ErrorAnswer } from '../engine/final-answer.js';
import type { RequestSource } from '../engine/route-context.js';
import type { RouterEngine } from '../engine/router-engine.js';
import { ChatCompletionsEncoder } from '../faces/chat-completions-encoder.js';
import { ClientGone } from '../upstream/client-gone.js';
import { parseJson } from '../gate/safe-json.js';
import { clientToken, isJsonContentType } from './guards.js';
import { readBody } from './read-body.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';
import { sendJson } from './respond.js';

/** Longest accepted `model` name (history entries allow 500 characters per name). */
const MAX_MODEL_NAME = 300;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decision headers of a chat request refused before it reached the chat face (every chat answer has them). */
export function rejectionHeaders(req: IncomingMessage): Record<string, string> {
  return { ...decisionHeaders(new RequestTrace(requestIdOf(req)), 'rejected') };
}

function requestIdOf(req: IncomingMessage): string {
  return pickRequestId(req.headers['x-request-id'] as string | undefined, randomUUID);
}

/** A client error before routing: 400 (or `status`) in the face's shape, with the decision headers. */
function badRequest(
  answer: Answer,
  message: string,
  param: string | null,
  status = 400,
  code = 'invalid_request',
): void {
  const error: ErrorAnswer = { status, code, type: 'invalid_request_error', message, retryAfterSec: null };
  if (param !== null) error.param = param;
  answer.refuse(error, 'rejected', status === 413 ? { connection: 'close' } : undefined);
}

/** What the dashboard's Test buttons mark their requests with; anything else is an agent. */
function sourceOf(req: IncomingMessage): RequestSource {
  return req.headers['x-fcm-source'] === 'test' ? 'test' : 'agent';
}

/**
 * `POST /v1/chat/completions`: checks the request's shape (415, 413, 400 with OpenAI-shaped errors), then
 * hands it to the engine. The body is passed through as the agent sent it; only `model` is rewritten.
 */
export async function handleChat(
  engine: RouterEngine,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const answer = new Answer(res, new ChatCompletionsEncoder(), requestIdOf(req));
  if (!isJsonContentType(req.headers['content-type'])) {
    req.resume();
    const message = 'fcm-router: send the request body as application/json';
    return badRequest(answer, message, null, 415, 'unsupported_media_type');
  }
  const read = await readBody(req);
  if (!read.ok) {
    if (read.reason === 'too_large')
      badRequest(answer, 'fcm-router: request body is over 10 MiB', null, 413, 'request_too_large');
    else res.destroy();
    return;
  }
  const parsed = parseJson(read.body.toString('utf8'));
  if (!parsed.ok) {
    const message = `fcm-router: request body is not valid JSON (${parsed.error})`;
    return badRequest(answer, message, null, 400, 'invalid_json');
  }
  const body = parsed.value;
  if (!isRecord(body)) return badRequest(answer, 'fcm-router: request body must be a JSON object', null);
  if (exceedsJsonDepth(body))
    return badRequest(answer, `fcm-router: request body nests deeper than ${MAX_JSON_DEPTH} levels`, null);
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return badRequest(answer, 'fcm-router: "messages" must be a non-empty array', 'messages');
  if (body.model !== undefined && typeof body.model !== 'string')
    return badRequest(answer, 'fcm-router: "model" must be a string', 'model');
  // History keeps the name; a longer one would make its entry invalid when the history is loaded again.
  if (typeof body.model === 'string' && body.model.length > MAX_MODEL_NAME)
    return badRequest(answer, `fcm-router: "model" is longer than ${MAX_MODEL_NAME} characters`, 'model');
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean')
    return badRequest(answer, 'fcm-router: "stream" must be a boolean', 'stream');

  const clientGone = new ClientGone();
  const onClose = (): void => {
    if (!res.writableFinished) clientGone.markGone();
  };
  res.on('close', onClose);
  try {
    await engine.handleChat(
      {
        requestId: answer.trace.requestId,
        modelRequested: typeof body.model === 'string' && body.model.length > 0 ? body.model : 'fcm',
        body,
        stream: body.stream === true,
        clientHeaders: req.headers,
        client: clientToken(req.headers['user-agent']),
        source: sourceOf(req),
        clientGone,
      },
      answer,
    );
  } finally {
    res.off('close', onClose);
  }
}

/** `GET /v1/models`: `fcm`, each `fcm:<set>` and each `fcm:@provider/model`. */
export function handleModels(names: readonly string[], res: ServerResponse): void {
  sendJson(res, 200, {
    object: 'list',
    data: names.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fcm-router' })),
  });
}
