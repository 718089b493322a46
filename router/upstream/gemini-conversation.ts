/**
 * Google's rule for a conversation with a Gemini model on its OpenAI-compatible API: an assistant turn's
 * tool calls carry the thought signature the model gave them (`extra_content.google.thought_signature`, on
 * the first call of a turn), or Gemini 3 refuses the whole request with a 400 ("Function call is missing a
 * thought_signature"). Agents lose them as a matter of course: the Messages and Responses protocols have no
 * place for them, chat agents drop fields they do not know, and after a failover the calls were another
 * model's, which never had one. Google documents a stand-in signature for calls it did not make; a turn
 * that kept its own signature goes up as it came. Pure.
 */
import { isRecord } from '../gate/safe-json.js';

/** Google's documented stand-in for a function call's thought signature that the conversation lost. */
export const STAND_IN_SIGNATURE = 'skip_thought_signature_validator';

/** The signature a tool call carries, or null. */
export function thoughtSignatureOf(call: unknown): string | null {
  if (!isRecord(call) || !isRecord(call.extra_content)) return null;
  const google = call.extra_content.google;
  return isRecord(google) && typeof google.thought_signature === 'string' ? google.thought_signature : null;
}

/** `call` with `signature` as its thought signature, its other `extra_content` kept. */
function signed(call: Record<string, unknown>, signature: string): Record<string, unknown> {
  const extra = isRecord(call.extra_content) ? call.extra_content : {};
  const google = isRecord(extra.google) ? extra.google : {};
  return { ...call, extra_content: { ...extra, google: { ...google, thought_signature: signature } } };
}

/** An assistant turn whose tool calls carry no signature, with the stand-in on its first call; else itself. */
function withSignature(message: unknown): unknown {
  if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls))
    return message;
  const calls = message.tool_calls as unknown[];
  const first = calls[0];
  if (!isRecord(first) || calls.some((call) => thoughtSignatureOf(call) !== null)) return message;
  return { ...message, tool_calls: [signed(first, STAND_IN_SIGNATURE), ...calls.slice(1)] };
}

/**
 * `messages` as Gemini takes them: each assistant turn with tool calls and no thought signature gets
 * Google's stand-in on its first call; everything else is as it came. The input is not changed.
 *
 * @example geminiConversation([{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] }])
 *   // [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { … },
 *   //    extra_content: { google: { thought_signature: 'skip_thought_signature_validator' } } }] }]
 */
export function geminiConversation(messages: readonly unknown[]): unknown[] {
  return messages.map(withSignature);
}
