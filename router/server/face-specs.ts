import type { IncomingHttpHeaders } from 'node:http';
import {
  ChatEncoder,
  MessagesEncoder,
  ResponsesEncoder,
  translateMessagesRequest,
  translateResponsesRequest,
  type FaceRequest,
  type ToolNames,
} from '../faces/index.js';
import type { FaceSpec, FaceTranslation } from './face-route.js';

/**
 * Of a translating face's client headers, only the agent's name goes upstream: its protocol's own headers
 * (`anthropic-beta`, `anthropic-version`, session ids) mean nothing to a chat-completions provider.
 */
function agentNameOnly(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const agent = headers['user-agent'];
  return agent === undefined ? {} : { 'user-agent': agent };
}

/** A face translation as the route takes it, with what its encoder needs from it (`extra`). */
function routed<T, E>(
  request: FaceRequest<T>,
  extra: (request: Extract<FaceRequest<T>, { ok: true }>) => E,
): FaceTranslation<E> {
  if (!request.ok) {
    // The translations prefix their messages already; the route adds its own.
    return { ok: false, message: request.message.replace(/^fcm-router: /, ''), param: request.param };
  }
  return {
    ok: true,
    chat: request.chat,
    stream: request.stream,
    model: request.model,
    extra: extra(request),
    effort: request.effort,
  };
}

/**
 * `POST /v1/chat/completions`: the upstreams' own protocol. The body goes upstream as the agent sent it
 * (only `model` changes per attempt); the checks here are the few the router itself relies on.
 */
export const chatFace: FaceSpec<null> = {
  translate(body) {
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return { ok: false, message: '"messages" must be a non-empty array', param: 'messages' };
    if (body.model !== undefined && typeof body.model !== 'string')
      return { ok: false, message: '"model" must be a string', param: 'model' };
    if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean')
      return { ok: false, message: '"stream" must be a boolean', param: 'stream' };
    const model = typeof body.model === 'string' ? body.model : '';
    return { ok: true, chat: body, stream: body.stream === true, model, extra: null };
  },
  encoder: () => new ChatEncoder(),
  upstreamHeaders: (headers) => headers,
};

/** `POST /v1/messages` (Claude Code): Anthropic Messages in, one chat-completions request upstream. */
export const messagesFace: FaceSpec<null> = {
  translate: (body) => routed(translateMessagesRequest(body), () => null),
  encoder: (requestId, request) => new MessagesEncoder({ requestId, model: request?.model ?? 'fcm' }),
  upstreamHeaders: agentNameOnly,
};

/** `POST /v1/responses` (Codex): OpenAI Responses in, one chat-completions request upstream. */
export const responsesFace: FaceSpec<ToolNames | null> = {
  translate: (body) => routed(translateResponsesRequest(body), (request) => request.toolNames),
  encoder: (requestId, request) =>
    new ResponsesEncoder({
      requestId,
      model: request?.model ?? 'fcm',
      createdAt: Math.floor(Date.now() / 1000),
      toolNames: request?.extra ?? new Map(),
    }),
  upstreamHeaders: agentNameOnly,
};
