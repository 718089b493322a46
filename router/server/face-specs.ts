import { freshIdStem } from '../gate/minted-ids.js';
import {
  chatSchema,
  ChatEncoder,
  fieldError,
  forcedToolNotOffered,
  keptOutputs,
  MessagesEncoder,
  ResponsesEncoder,
  translateMessagesRequest,
  translateResponsesRequest,
  type FaceRequest,
  type FieldError,
  type MessagesExtra,
  type ResponseItemStore,
  type ResponsesExtra,
  withAllowedTools,
  withoutBlankMessages,
  withoutEmptyOffer,
  withoutSchemaMarks,
  withTextContent,
} from '../faces/index.js';
import type { Clock } from '../state/clock.js';
import type { FaceSpec, FaceTranslation } from './face-route.js';

/** A translation's 400 as the route takes it. */
function refusal(error: FieldError): FaceTranslation<never> {
  // The translations prefix their messages already; the route adds its own.
  return { ok: false, message: error.message.replace(/^fcm-router: /, ''), param: error.param };
}

/** A face translation as the route takes it, with what its encoder needs from it (`extra`). */
function routed<T, E>(
  request: FaceRequest<T>,
  extra: (request: Extract<FaceRequest<T>, { ok: true }>) => E,
): FaceTranslation<E> {
  if (!request.ok) return refusal(request);
  const unoffered = forcedToolNotOffered(request.chat);
  if (unoffered !== null) return refusal(unoffered);
  return {
    ok: true,
    chat: request.chat,
    stream: request.stream,
    model: request.model,
    extra: extra(request),
    effort: request.effort,
    unsentChars: request.unsentChars,
  };
}

/**
 * `POST /v1/chat/completions`: the upstreams' own protocol. The body goes upstream as the agent sent it
 * (only `model` changes per attempt; a tool's `$schema` is left out, a tool or system message's text parts
 * become one string, a message with nothing to say is left out, an `allowed_tools` choice becomes the tools
 * it allows, and a body offering no tool carries no `tools: []` or choice among them, as on the other
 * faces); it is checked first for what no provider takes (`chatSchema`).
 */
export const chatFace: FaceSpec<null> = {
  translate(body) {
    const checked = chatSchema.safeParse(body);
    if (!checked.success) return refusal(fieldError(checked.error));
    const allowed = withAllowedTools(body);
    if (!allowed.ok) return refusal(allowed);
    const unoffered = forcedToolNotOffered(allowed.body);
    if (unoffered !== null) return refusal(unoffered);
    const model = typeof body.model === 'string' ? body.model : '';
    const offered = withoutSchemaMarks(withoutEmptyOffer(allowed.body));
    const chat = withTextContent(withoutBlankMessages(offered));
    return { ok: true, chat, stream: body.stream === true, model, extra: null, unsentChars: 0 };
  },
  encoder: () => new ChatEncoder(),
};

/** `POST /v1/messages` (Claude Code): Anthropic Messages in, one chat-completions request upstream. */
export const messagesFace: FaceSpec<MessagesExtra> = {
  translate: (body) =>
    routed(translateMessagesRequest(body), ({ thinking, stopSequences }) => ({ thinking, stopSequences })),
  encoder: (request) =>
    new MessagesEncoder({
      idStem: freshIdStem(),
      model: request?.model ?? 'fcm',
      thinking: request?.extra.thinking ?? 'off',
      inputTokens: request?.inputTokens ?? 0,
      stopSequences: request?.extra.stopSequences ?? [],
    }),
};

/**
 * `POST /v1/responses` (Codex, the AI SDK's `openai.responses()`): OpenAI Responses in, one chat-completions
 * request upstream. Each answer's output items go to `items` (unless the agent sent `store: false`), for
 * later requests that refer to them; their ids carry a random stem, so no two answers share one.
 */
export function responsesFace(deps: {
  items: ResponseItemStore;
  clock: Clock;
}): FaceSpec<ResponsesExtra | null> {
  const { items, clock } = deps;
  return {
    translate: (body) =>
      routed(translateResponsesRequest(body, items), ({ toolNames, keepItems, summary }) => ({
        toolNames,
        keepItems,
        summary,
      })),
    encoder: (request) =>
      new ResponsesEncoder({
        idStem: freshIdStem(),
        model: request?.model ?? 'fcm',
        createdAt: Math.floor(clock() / 1000),
        toolNames: request?.extra?.toolNames ?? new Map(),
        summary: request?.extra?.summary ?? true,
        ...(request?.extra?.keepItems ? { onServed: (output) => items.keep(keptOutputs(output)) } : {}),
      }),
  };
}
