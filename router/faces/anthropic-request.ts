/**
 * Anthropic Messages request → one chat-completions request. `thinking`, `metadata`, `context_management`,
 * `top_k`, the `anthropic-beta` header and `cache_control` marks are accepted and not forwarded; the effort
 * in `output_config` comes back beside the body for the engine to pass on where a model takes it, and
 * whether thinking is on, for the encoder.
 */
import type {
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolChoice,
  FaceRequest,
  ReasoningEffort,
} from './chat-request.js';
import { copyDefined, hoistSystem, streamFields } from './chat-request.js';
import { convertMessages, systemText, thinkingLength } from './anthropic-content.js';
import {
  countTokensSchema,
  messagesSchema,
  type AnthropicTool,
  type AnthropicToolChoice,
  type CountTokensBody,
  type MessagesBody,
} from './anthropic-schema.js';
import { fieldError, refuse, type FieldError } from './face-validation.js';
import { functionParameters } from './tool-parameters.js';
import type { ThinkingShown } from './anthropic-message.js';

/**
 * The first system block Claude Code sends is a billing line that changes every session: meaningless to
 * other models, and it would defeat the upstreams' prompt caching, so it is left out.
 */
const BILLING_LINE = 'x-anthropic-billing-header:';

/**
 * The agent's own tools as chat functions. Tools Anthropic runs itself (a `type` other than `custom`) are
 * dropped: a chat upstream cannot run them. A `defer_loading` tool is sent only once a `tool_reference`
 * (the result of the agent's tool search) has loaded it, as Anthropic does.
 */
export function chatTools(tools: readonly AnthropicTool[], referenced: ReadonlySet<string>): ChatTool[] {
  const out: ChatTool[] = [];
  for (const tool of tools) {
    if (tool.type !== undefined && tool.type !== 'custom') continue;
    if (tool.defer_loading === true && !referenced.has(tool.name)) continue;
    const fn: ChatTool['function'] = { name: tool.name, parameters: functionParameters(tool.input_schema) };
    if (tool.description !== undefined) fn.description = tool.description;
    out.push({ type: 'function', function: fn });
  }
  return out;
}

/** `tool_choice` in chat's words; `disable_parallel_tool_use` becomes `parallel_tool_calls: false`. */
export function chatToolChoice(choice: AnthropicToolChoice): {
  tool_choice: ChatToolChoice;
  parallel_tool_calls?: false;
} {
  const serial = 'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true;
  const parallel = serial ? { parallel_tool_calls: false as const } : {};
  switch (choice.type) {
    case 'auto':
      return { tool_choice: 'auto', ...parallel };
    case 'any':
      return { tool_choice: 'required', ...parallel };
    case 'tool':
      return { tool_choice: { type: 'function', function: { name: choice.name } }, ...parallel };
    case 'none':
      return { tool_choice: 'none' };
  }
}

/** What the Messages encoder needs to know of the request, beside the chat body. */
export interface MessagesExtra {
  /** How the answer's reasoning is shown: as thinking blocks with their text, empty ones, or none. */
  thinking: ThinkingShown;
  /** The `stop_sequences` asked for: an answer that stopped on one says which. */
  stopSequences: readonly string[];
}

/**
 * Thinking is on with `thinking.type` `enabled` or `adaptive` (what Claude Code sends), its blocks empty with
 * `display: "omitted"` (Claude Code's too); absent or `disabled`, Anthropic answers with no thinking block.
 *
 * @example thinkingShown({ thinking: { type: 'adaptive', display: 'omitted' } }) // 'omitted'
 */
export function thinkingShown(body: Pick<MessagesBody, 'thinking'>): ThinkingShown {
  const type = body.thinking?.type;
  if (type !== 'enabled' && type !== 'adaptive') return 'off';
  return body.thinking?.display === 'omitted' ? 'omitted' : 'text';
}

/** Anthropic's effort levels in chat's `reasoning_effort` words; thinking turned off means none. */
export function effortOf(body: MessagesBody): ReasoningEffort | null {
  if (body.thinking?.type === 'disabled') return null;
  const effort = body.output_config?.effort;
  if (effort === 'low' || effort === 'medium' || effort === 'high') return effort;
  if (effort === 'max' || effort === 'xhigh') return 'high';
  return null;
}

/** The chat messages and tools of a Messages (or count_tokens) body, and the length of what they leave out. */
export function chatConversation(
  body: CountTokensBody,
): { ok: true; messages: ChatMessage[]; tools: ChatTool[]; unsentChars: number } | FieldError {
  const referenced = new Set<string>();
  const converted = convertMessages(body.messages, referenced);
  if (!converted.ok) return converted;
  const system =
    body.system === undefined
      ? ''
      : systemText(
          typeof body.system === 'string'
            ? body.system
            : body.system.filter((b) => !b.text.startsWith(BILLING_LINE)),
        );
  const messages = hoistSystem(
    system === '' ? converted.messages : [{ role: 'system', content: system }, ...converted.messages],
  );
  const unsentChars = thinkingLength(body.messages);
  return { ok: true, messages, tools: chatTools(body.tools ?? [], referenced), unsentChars };
}

/**
 * Translates an Anthropic Messages request body (already JSON-parsed) into one chat-completions body, or a
 * 400 naming the field at fault.
 */
export function translateMessagesRequest(body: unknown): FaceRequest<MessagesExtra> {
  const parsed = messagesSchema.safeParse(body);
  if (!parsed.success) return fieldError(parsed.error);
  const request = parsed.data;
  const conversation = chatConversation(request);
  if (!conversation.ok) return conversation;
  // Anthropic's API refuses it too; sent on, every model would be asked only to refuse it or answer nothing.
  if (conversation.messages.every((message) => message.role === 'system'))
    return refuse('messages', 'hold nothing to answer: every message is empty');
  const stream = request.stream === true;
  const chat: ChatRequest = { model: request.model, messages: conversation.messages };
  if (conversation.tools.length > 0) {
    chat.tools = conversation.tools;
    // A choice without tools is refused by several upstreams; with every tool dropped there is nothing to choose.
    if (request.tool_choice) Object.assign(chat, chatToolChoice(request.tool_choice));
  }
  chat.max_tokens = request.max_tokens;
  copyDefined(chat, { temperature: request.temperature, top_p: request.top_p }, ['temperature', 'top_p']);
  const stopSequences = request.stop_sequences ?? [];
  if (stopSequences.length > 0) chat.stop = stopSequences;
  Object.assign(chat, streamFields(stream));
  const effort = effortOf(request);
  const extra = { thinking: thinkingShown(request), stopSequences };
  const { unsentChars } = conversation;
  return { ok: true, chat, stream, model: request.model, effort, unsentChars, ...extra };
}

/** Validates a `count_tokens` body and gives its chat form, or a 400 naming the field at fault. */
export function countTokensConversation(
  body: unknown,
): { ok: true; messages: ChatMessage[]; tools: ChatTool[]; unsentChars: number } | FieldError {
  const parsed = countTokensSchema.safeParse(body);
  if (!parsed.success) return fieldError(parsed.error);
  return chatConversation(parsed.data);
}
