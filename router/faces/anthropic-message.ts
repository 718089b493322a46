/**
 * A served chat completion as an Anthropic `message` object, and the mappings its stream shares: finish
 * reason → `stop_reason` and `stop_sequence`, usage → `usage`.
 */
import { argumentsObject, type CollectedAnswer } from './answer-collector.js';
import type { ChatUsage } from './chat-deltas.js';

/**
 * The signature every thinking block carries. Anthropic signs its own reasoning; an upstream's has no such
 * signature, and clients only need the field to be there (earlier turns' thinking is dropped on the way up).
 */
export const THINKING_SIGNATURE = 'fcm-router';

/** How the upstream said an answer ended. */
export interface AnswerEnding {
  finish: string | null;
  /** The stop string that ended it, where the upstream named it. */
  matchedStop: string | null;
}

/**
 * `finish_reason` → `stop_reason`: stop → end_turn, length → max_tokens, tool_calls → tool_use,
 * content_filter → refusal. An answer with tool calls stops for them whatever the upstream said (some say
 * `stop` there), and `tool_calls` with no call is a plain end of turn.
 */
function stopReason(finish: string | null, hasToolUse: boolean): string {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'content_filter') return 'refusal';
  return hasToolUse ? 'tool_use' : 'end_turn';
}

/**
 * How an answer ended in Anthropic's words: `stop_reason` (see `stopReason`) and `stop_sequence`. A stop on
 * one of the request's `stopSequences` is `stop_sequence`, naming it; a stop string the upstream names that
 * the request did not ask for is a plain end of turn.
 */
export function anthropicStop(
  ending: AnswerEnding,
  hasToolUse: boolean,
  stopSequences: readonly string[],
): { stop_reason: string; stop_sequence: string | null } {
  const { finish, matchedStop } = ending;
  if (finish === 'stop' && !hasToolUse && matchedStop !== null && stopSequences.includes(matchedStop))
    return { stop_reason: 'stop_sequence', stop_sequence: matchedStop };
  return { stop_reason: stopReason(finish, hasToolUse), stop_sequence: null };
}

/**
 * Chat usage as Anthropic usage. Chat's prompt tokens include cached ones; Anthropic counts cache reads
 * apart from `input_tokens`, so they are split out. Where the upstream did not count the input, the
 * router's `estimatedInput` stands in: Claude Code compacts the conversation on what it reads there.
 */
export function anthropicUsage(usage: ChatUsage | null, estimatedInput: number): Record<string, number> {
  const cached = usage?.cachedTokens ?? 0;
  const input = usage?.inputTokens;
  const out: Record<string, number> = {
    output_tokens: usage?.outputTokens ?? 0,
    input_tokens: input == null ? estimatedInput : Math.max(0, input - cached),
  };
  if (cached > 0) out.cache_read_input_tokens = cached;
  return out;
}

/**
 * How an answer's reasoning reaches the client, as the request's `thinking` asks: `off` (thinking not turned
 * on: no thinking block, and clients that did not ask take `content[0]` for the answer), `text` (thinking
 * blocks carry it), or `omitted` (`display: "omitted"`, what Claude Code asks: the blocks come empty, as
 * Anthropic's do then, and the agent does not send the reasoning back on every later turn).
 */
export type ThinkingShown = 'off' | 'text' | 'omitted';

/** What one answer's message is written with, beside the upstream's answer: its ids and the request's asks. */
export interface MessageFacts {
  /** The model name the agent asked for, echoed in `model`. */
  model: string;
  messageId: string;
  /** The stem of tool ids minted where the upstream gave none. */
  toolIdStem: string;
  /** How the answer's reasoning is shown (`ThinkingShown`). */
  thinking: ThinkingShown;
  /** The router's estimate of the request's input tokens, for when the upstream reports none. */
  inputTokens: number;
  /** The request's `stop_sequences`. */
  stopSequences: readonly string[];
}

/** The Anthropic `message` for a collected answer (thinking when asked for, text, then tool_use blocks). */
export function anthropicMessage(answer: CollectedAnswer, facts: MessageFacts): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (facts.thinking !== 'off' && answer.reasoning !== '') {
    const thinking = facts.thinking === 'text' ? answer.reasoning : '';
    content.push({ type: 'thinking', thinking, signature: THINKING_SIGNATURE });
  }
  if (answer.text !== '') content.push({ type: 'text', text: answer.text });
  answer.toolCalls.forEach((call, i) => {
    const id = call.id ?? `toolu_${facts.toolIdStem}_${i + 1}`;
    content.push({ type: 'tool_use', id, name: call.name, input: argumentsObject(call.arguments) });
  });
  const usage = anthropicUsage(answer.usage, facts.inputTokens);
  const ending = { finish: answer.finishReason, matchedStop: answer.matchedStop };
  return {
    id: facts.messageId,
    type: 'message',
    role: 'assistant',
    model: facts.model,
    content,
    ...anthropicStop(ending, answer.toolCalls.length > 0, facts.stopSequences),
    usage: { input_tokens: usage.input_tokens, ...usage },
  };
}
