/**
 * OpenAI Responses request → one chat-completions request. `include`, `prompt_cache_key`,
 * `client_metadata` and `metadata` are accepted and not forwarded. `item_reference` items are expanded
 * from the items of recent answers the router kept (`ItemLookup`); a reference it does not hold is a 400.
 * The router keeps no whole conversations, so `previous_response_id` (and `conversation`) get a 400: the
 * agent must send the whole conversation, as Codex does with `store: false`.
 */
import type { ChatRequest, ChatResponseFormat, FaceRequest, ReasoningEffort } from './chat-request.js';
import { copyDefined, hoistSystem, streamFields } from './chat-request.js';
import { fieldError, refuse, type FieldError } from './face-validation.js';
import { convertInput } from './responses-input.js';
import type { ItemLookup } from './responses-item-store.js';
import { expandReferences, NO_ITEMS } from './responses-references.js';
import { DROPPED_ITEM_TYPES, responsesSchema, type ResponsesBody } from './responses-schema.js';
import { chatTools, offeredTools, type ToolNames } from './responses-tools.js';
import { droppedLength } from './unsent-text.js';

/** The input items no upstream is sent (`convertInput` leaves them out). */
const DROPPED_ITEMS: ReadonlySet<string> = new Set(DROPPED_ITEM_TYPES);

/** `reasoning.effort` in chat's `reasoning_effort` words (`none` asks for none). */
export function responsesEffort(body: ResponsesBody): ReasoningEffort | null {
  const effort = body.reasoning?.effort;
  if (effort === 'minimal' || effort === 'low' || effort === 'medium' || effort === 'high') return effort;
  if (effort === 'xhigh') return 'high';
  return null;
}

/** Whether the request asks for the reasoning's summary text (Codex asks `auto`); without it none is shown. */
export function summaryAsked(body: Pick<ResponsesBody, 'reasoning'>): boolean {
  const summary = body.reasoning?.summary ?? body.reasoning?.generate_summary;
  return summary !== undefined && summary !== null && summary !== 'none';
}

function responseFormat(body: ResponsesBody): ChatResponseFormat | null {
  const format = body.text?.format;
  if (!format || format.type === 'text') return null;
  if (format.type === 'json_object') return { type: 'json_object' };
  const schema: { name: string; schema: Record<string, unknown>; strict?: boolean } = {
    name: format.name,
    schema: format.schema,
  };
  if (typeof format.strict === 'boolean') schema.strict = format.strict;
  return { type: 'json_schema', json_schema: schema };
}

/** The 400 for asking the router to recall a whole conversation, which it does not keep; else null. */
function statefulRefusal(request: ResponsesBody): FieldError | null {
  if (request.previous_response_id) {
    return refuse(
      'previous_response_id',
      'is not supported: fcm-router keeps no whole conversations; send the whole conversation in `input` (with `store: false`)',
    );
  }
  if (request.conversation !== undefined && request.conversation !== null) {
    return refuse(
      'conversation',
      'is not supported: fcm-router keeps no conversations; send the whole conversation in `input`',
    );
  }
  return null;
}

/** What the encoder needs from the translation. */
export interface ResponsesExtra {
  /** Flattened namespace function names and custom tools mapped back. */
  toolNames: ToolNames;
  /** Whether the answer's items are kept for later references (not with `store: false`). */
  keepItems: boolean;
  /** Whether reasoning items show the reasoning as summary text (`summaryAsked`); else their summary is empty. */
  summary: boolean;
}

/**
 * Translates a Responses request body (already JSON-parsed) into one chat-completions body, or a 400 naming
 * the field at fault; `items` resolves `item_reference` items (by default none is held).
 */
export function translateResponsesRequest(
  body: unknown,
  items: ItemLookup = NO_ITEMS,
): FaceRequest<ResponsesExtra> {
  const parsed = responsesSchema.safeParse(body);
  if (!parsed.success) return fieldError(parsed.error);
  const request = parsed.data;
  const stateful = statefulRefusal(request);
  if (stateful) return stateful;
  const input = expandReferences(request.input, items);
  if (!input.ok) return input;
  const converted = convertInput(input.input);
  if (!converted.ok) return converted;
  const tools = chatTools(request.tools ?? []);
  if (!tools.ok) return tools;
  const messages = hoistSystem(
    request.instructions
      ? [{ role: 'system', content: request.instructions }, ...converted.messages]
      : converted.messages,
  );
  if (!messages.some((message) => message.role !== 'system'))
    return refuse('input', 'holds no message for the model to answer');

  const stream = request.stream === true;
  const chat: ChatRequest = { model: request.model, messages };
  const offered = offeredTools(tools.tools, tools.names, request.tool_choice);
  if (offered.tools.length > 0) {
    chat.tools = offered.tools;
    if (offered.choice) chat.tool_choice = offered.choice;
    if (typeof request.parallel_tool_calls === 'boolean')
      chat.parallel_tool_calls = request.parallel_tool_calls;
  }
  if (request.max_output_tokens) chat.max_tokens = request.max_output_tokens;
  copyDefined(chat, { temperature: request.temperature ?? undefined, top_p: request.top_p ?? undefined }, [
    'temperature',
    'top_p',
  ]);
  const format = responseFormat(request);
  if (format) chat.response_format = format;
  Object.assign(chat, streamFields(stream));
  return {
    ok: true,
    chat,
    stream,
    model: request.model,
    effort: responsesEffort(request),
    toolNames: tools.names,
    keepItems: request.store !== false,
    summary: summaryAsked(request),
    unsentChars: typeof request.input === 'string' ? 0 : droppedLength(request.input, DROPPED_ITEMS),
  };
}
