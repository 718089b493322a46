import type { IncomingHttpHeaders } from 'node:http';
import { ChatCompletionsEncoder } from '../faces/chat-completions-encoder.js';
import type { FaceSpec, FaceTranslation } from './face-route.js';

/**
 * `POST /v1/chat/completions`: the upstreams' own protocol. The body goes upstream as the agent sent it
 * (only `model` changes per attempt); the checks here are the few the router itself relies on.
 */
export const chatFace: FaceSpec<null> = {
  translate(body: Record<string, unknown>): FaceTranslation<null> {
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return { ok: false, message: '"messages" must be a non-empty array', param: 'messages' };
    if (body.model !== undefined && typeof body.model !== 'string')
      return { ok: false, message: '"model" must be a string', param: 'model' };
    if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean')
      return { ok: false, message: '"stream" must be a boolean', param: 'stream' };
    const model = typeof body.model === 'string' ? body.model : '';
    return { ok: true, chat: body, stream: body.stream === true, model, extra: null };
  },
  encoder: () => new ChatCompletionsEncoder(),
  upstreamHeaders: (headers: IncomingHttpHeaders) => headers,
};
