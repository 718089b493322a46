/**
 * `POST /v1/messages/count_tokens`, answered locally: the router cannot know which upstream (and tokenizer)
 * a later request will reach, and a count is not worth an upstream call from a free quota. The count is the
 * router's one estimate of a request's size (`request-size.ts`), on the body's length less the earlier turns'
 * thinking, which no upstream is sent (`unsent-text.ts`).
 */
import { countTokensConversation } from './anthropic-request.js';
import type { FieldError } from './face-validation.js';
import { estimateNeeds } from './request-size.js';

/**
 * Answers a `count_tokens` body (`bodyBytes` long as the agent sent it): `{ input_tokens }` as Anthropic
 * does, or a 400 naming the field at fault.
 */
export function countMessagesTokens(
  body: unknown,
  bodyBytes: number,
): { ok: true; body: { input_tokens: number } } | FieldError {
  const conversation = countTokensConversation(body);
  if (!conversation.ok) return conversation;
  const sent = Math.max(0, bodyBytes - conversation.unsentChars);
  const needs = estimateNeeds(sent, { messages: conversation.messages });
  return { ok: true, body: { input_tokens: needs.input } };
}
