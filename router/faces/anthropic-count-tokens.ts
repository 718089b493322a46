/**
 * `POST /v1/messages/count_tokens`, answered locally: the router cannot know which upstream (and tokenizer)
 * a later request will reach, and a count is not worth an upstream call from a free quota.
 *
 * The heuristic, on the request as it would be sent upstream (chat form, billing line and deferred tools
 * left out): one token per 4 characters of text (system, messages, tool call arguments, tool results and the
 * JSON of the tool definitions), 4 tokens of framing per message, and 1,600 tokens per image (Anthropic's
 * figure for a full-size image). Typical BPE tokenizers give 3.5–4.5 characters per token on English and
 * code, so this lands within about 20% for agent traffic; it errs high on images.
 */
import type { ChatMessage, ChatTool } from './chat-request.js';
import { countTokensConversation } from './anthropic-request.js';
import type { FieldError } from './face-validation.js';

export const CHARS_PER_TOKEN = 4;
export const TOKENS_PER_MESSAGE = 4;
export const TOKENS_PER_IMAGE = 1600;

/** The estimated input tokens of chat messages and tools (see the module comment for the heuristic). */
export function estimateTokens(messages: readonly ChatMessage[], tools: readonly ChatTool[]): number {
  let chars = tools.length > 0 ? JSON.stringify(tools).length : 0;
  let images = 0;
  for (const message of messages) {
    const { content } = message;
    if (typeof content === 'string') chars += content.length;
    else if (Array.isArray(content)) {
      for (const part of content) {
        if (part.type === 'text') chars += part.text.length;
        else images += 1;
      }
    }
    if (message.role === 'assistant' && message.tool_calls) {
      for (const call of message.tool_calls)
        chars += call.function.name.length + call.function.arguments.length;
    }
  }
  return (
    Math.ceil(chars / CHARS_PER_TOKEN) + messages.length * TOKENS_PER_MESSAGE + images * TOKENS_PER_IMAGE
  );
}

/** Answers a `count_tokens` body: `{ input_tokens }` as Anthropic does, or a 400 naming the field at fault. */
export function countMessagesTokens(
  body: unknown,
): { ok: true; body: { input_tokens: number } } | FieldError {
  const conversation = countTokensConversation(body);
  if (!conversation.ok) return conversation;
  return { ok: true, body: { input_tokens: estimateTokens(conversation.messages, conversation.tools) } };
}
