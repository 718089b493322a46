/**
 * A served chat completion as an Anthropic `message` object, and the mappings its stream shares: finish
 * reason → `stop_reason`, usage → `usage`.
 */
import { argumentsObject, type CollectedAnswer } from './answer-collector.js';
import type { ChatUsage } from './chat-deltas.js';

/**
 * The signature every thinking block carries. Anthropic signs its own reasoning; an upstream's has no such
 * signature, and clients only need the field to be there (earlier turns' thinking is dropped on the way up).
 */
export const THINKING_SIGNATURE = 'fcm-router';

/**
 * `finish_reason` → `stop_reason`: stop → end_turn, length → max_tokens, tool_calls → tool_use,
 * content_filter → refusal. An answer with tool calls stops for them whatever the upstream said (some say
 * `stop` there), and `tool_calls` with no call is a plain end of turn.
 */
export function anthropicStopReason(finish: string | null, hasToolUse: boolean): string {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'content_filter') return 'refusal';
  return hasToolUse ? 'tool_use' : 'end_turn';
}

/**
 * Chat usage as Anthropic usage. Chat's prompt tokens include cached ones; Anthropic counts cache reads
 * apart from `input_tokens`, so they are split out.
 */
export function anthropicUsage(usage: ChatUsage | null): Record<string, number> {
  const cached = usage?.cachedTokens ?? 0;
  const out: Record<string, number> = { output_tokens: usage?.outputTokens ?? 0 };
  if (usage?.inputTokens != null) out.input_tokens = Math.max(0, usage.inputTokens - cached);
  if (cached > 0) out.cache_read_input_tokens = cached;
  return out;
}

/** Ids for one answer: the message's, and the stem of tool ids minted where the upstream gave none. */
export interface AnthropicIds {
  messageId: string;
  toolIdStem: string;
}

/** The Anthropic `message` for a collected answer (thinking, text, then tool_use blocks). */
export function anthropicMessage(
  answer: CollectedAnswer,
  model: string,
  ids: AnthropicIds,
): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (answer.reasoning !== '')
    content.push({ type: 'thinking', thinking: answer.reasoning, signature: THINKING_SIGNATURE });
  if (answer.text !== '') content.push({ type: 'text', text: answer.text });
  answer.toolCalls.forEach((call, i) => {
    const id = call.id ?? `toolu_${ids.toolIdStem}_${i + 1}`;
    content.push({ type: 'tool_use', id, name: call.name, input: argumentsObject(call.arguments) });
  });
  const usage = anthropicUsage(answer.usage);
  return {
    id: ids.messageId,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: anthropicStopReason(answer.finishReason, answer.toolCalls.length > 0),
    stop_sequence: null,
    usage: { input_tokens: usage.input_tokens ?? 0, ...usage },
  };
}
