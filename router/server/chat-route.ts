import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pickRequestId } from '../engine/decision-header.js';
import type { ErrorAnswer } from '../engine/final-answer.js';
import type { ChatResponder } from '../engine/route-request.js';
import type { RouterEngine } from '../engine/router-engine.js';
import { ClientGone } from '../upstream/client-gone.js';
import { parseJson } from '../gate/safe-json.js';
import { clientToken, isJsonContentType } from './guards.js';
import { readBody } from './read-body.js';
import { sendError, sendJson } from './respond.js';

/** Longest accepted `model` name (history entries allow 500 characters per name). */
const MAX_MODEL_NAME = 300;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Waits for the socket to drain, or for the client to go away (then writing is pointless). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The chat route's answers over one ServerResponse (a class: no closures to allocate per request). */
class ResponseResponder implements ChatResponder {
  readonly #res: ServerResponse;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  sendJson(status: number, body: Buffer | string, headers: Record<string, string>): void {
    const res = this.#res;
    if (res.headersSent || res.destroyed) return;
    // The engine builds the decision headers afresh for each answer: completed in place, not copied.
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    headers['cache-control'] = 'no-store';
    res.writeHead(status, headers);
    res.end(body);
  }

  commitStream(headers: Record<string, string>): void {
    const res = this.#res;
    if (res.headersSent || res.destroyed) return;
    headers['content-type'] = 'text/event-stream; charset=utf-8';
    headers['cache-control'] = 'no-cache';
    headers['x-accel-buffering'] = 'no';
    res.writeHead(200, headers);
  }

  write(chunk: Uint8Array): Promise<void> | undefined {
    const res = this.#res;
    if (res.destroyed || res.writableEnded) return undefined;
    return res.write(chunk) ? undefined : drained(res);
  }

  endStream(trailer: string | null): void {
    const res = this.#res;
    if (res.destroyed || res.writableEnded) return;
    if (trailer !== null && res.headersSent) res.end(trailer);
    else res.end();
  }

  sendError(answer: ErrorAnswer, headers: Record<string, string>): void {
    const res = this.#res;
    if (res.headersSent || res.destroyed) return;
    const extra: Record<string, string> = { ...headers };
    if (answer.retryAfterSec !== null) extra['retry-after'] = String(answer.retryAfterSec);
    sendError(res, answer.status, answer.code, answer.message, { type: answer.type, headers: extra });
  }
}

/** Decision headers of a chat request refused before routing (every chat answer carries them). */
export function rejectionHeaders(req: IncomingMessage): Record<string, string> {
  return rejectionHeadersFor(requestIdOf(req));
}

function requestIdOf(req: IncomingMessage): string {
  return pickRequestId(req.headers['x-request-id'] as string | undefined, randomUUID);
}

function rejectionHeadersFor(requestId: string): Record<string, string> {
  return {
    'x-request-id': requestId,
    'x-fcm-v2-model': 'none',
    'x-fcm-v2-attempts': '0',
    'x-fcm-v2-decision': 'none!rejected||skips=0',
  };
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
  const requestId = requestIdOf(req);
  // Built only for a refusal: a routed request's headers come from its trace.
  const idHeader = (): Record<string, string> => rejectionHeadersFor(requestId);
  if (!isJsonContentType(req.headers['content-type'])) {
    req.resume();
    sendError(res, 415, 'unsupported_media_type', 'fcm-router: send the request body as application/json', {
      headers: idHeader(),
    });
    return;
  }
  const read = await readBody(req);
  if (!read.ok) {
    if (read.reason === 'too_large') {
      sendError(res, 413, 'request_too_large', 'fcm-router: request body is over 10 MiB', {
        headers: { ...idHeader(), connection: 'close' },
      });
    } else res.destroy();
    return;
  }
  const parsed = parseJson(read.body.toString('utf8'));
  if (!parsed.ok) {
    sendError(res, 400, 'invalid_json', `fcm-router: request body is not valid JSON (${parsed.error})`, {
      headers: idHeader(),
    });
    return;
  }
  const body = parsed.value;
  if (!isRecord(body)) {
    sendError(res, 400, 'invalid_request', 'fcm-router: request body must be a JSON object', {
      headers: idHeader(),
    });
    return;
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    sendError(res, 400, 'invalid_request', 'fcm-router: "messages" must be a non-empty array', {
      headers: idHeader(),
      extra: { param: 'messages' },
    });
    return;
  }
  if (body.model !== undefined && typeof body.model !== 'string') {
    sendError(res, 400, 'invalid_request', 'fcm-router: "model" must be a string', {
      headers: idHeader(),
      extra: { param: 'model' },
    });
    return;
  }
  // History keeps the name; a longer one would make its entry invalid when the history is loaded again.
  if (typeof body.model === 'string' && body.model.length > MAX_MODEL_NAME) {
    sendError(
      res,
      400,
      'invalid_request',
      `fcm-router: "model" is longer than ${MAX_MODEL_NAME} characters`,
      { headers: idHeader(), extra: { param: 'model' } },
    );
    return;
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    sendError(res, 400, 'invalid_request', 'fcm-router: "stream" must be a boolean', {
      headers: idHeader(),
      extra: { param: 'stream' },
    });
    return;
  }

  const clientGone = new ClientGone();
  const onClose = (): void => {
    if (!res.writableFinished) clientGone.markGone();
  };
  res.on('close', onClose);
  try {
    await engine.handleChat(
      {
        requestId,
        modelRequested: typeof body.model === 'string' && body.model.length > 0 ? body.model : 'fcm',
        body,
        stream: body.stream === true,
        clientHeaders: req.headers,
        client: clientToken(req.headers['user-agent']),
        clientGone,
      },
      new ResponseResponder(res),
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
