/**
 * Google's rule for a conversation with a Gemini model on its OpenAI-compatible API: an assistant turn's
 * tool calls carry the thought signature the model gave them (`extra_content.google.thought_signature`, on
 * the first call of a turn), or Gemini 3 refuses the whole request with a 400 ("Function call is missing a
 * thought_signature"). Agents lose them as a matter of course (see `thought-signatures.ts`), and after a
 * failover the calls were another model's, which never had one. Each call gets back the signature the
 * router remembers for it; a turn with none gets Google's documented stand-in on its first call; a turn
 * that kept its own signature goes up as it came. Pure but for reading the memory.
 */
import { isRecord } from '../gate/safe-json.js';
import { thoughtSignatureOf, type ThoughtSignatures } from './thought-signatures.js';

/** Google's documented stand-in for a function call's thought signature that the conversation lost. */
export const STAND_IN_SIGNATURE = 'skip_thought_signature_validator';

/** `call` with `signature` as its thought signature, its other `extra_content` kept. */
function signed(call: Record<string, unknown>, signature: string): Record<string, unknown> {
  const extra = isRecord(call.extra_content) ? call.extra_content : {};
  const google = isRecord(extra.google) ? extra.google : {};
  return { ...call, extra_content: { ...extra, google: { ...google, thought_signature: signature } } };
}

/** `call` with its remembered signature, or null when none is remembered. */
function remembered(call: unknown, signatures: ThoughtSignatures | null): Record<string, unknown> | null {
  if (signatures === null || !isRecord(call) || typeof call.id !== 'string') return null;
  const signature = signatures.of(call.id);
  return signature === undefined ? null : signed(call, signature);
}

/**
 * An assistant turn whose tool calls carry no signature, with the remembered ones on their calls, or the
 * stand-in on its first call when none is remembered (and `standIn`); else itself.
 */
function withSignature(message: unknown, signatures: ThoughtSignatures | null, standIn: boolean): unknown {
  if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls))
    return message;
  const calls = message.tool_calls as unknown[];
  const first = calls[0];
  if (!isRecord(first) || calls.some((call) => thoughtSignatureOf(call) !== null)) return message;
  let found = false;
  const restored = calls.map((call) => {
    const back = remembered(call, signatures);
    found ||= back !== null;
    return back ?? call;
  });
  if (found) return { ...message, tool_calls: restored };
  if (!standIn) return message;
  return { ...message, tool_calls: [signed(first, STAND_IN_SIGNATURE), ...calls.slice(1)] };
}

/**
 * `messages` as Gemini takes them: each assistant turn with tool calls and no thought signature gets the
 * signatures `signatures` remembers for its calls, or, with `standIn` (Gemini 3 and later), Google's
 * stand-in on its first call; everything else is as it came. The input is not changed.
 *
 * @example geminiConversation([{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] }], null, true)
 *   // [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { … },
 *   //    extra_content: { google: { thought_signature: 'skip_thought_signature_validator' } } }] }]
 */
export function geminiConversation(
  messages: readonly unknown[],
  signatures: ThoughtSignatures | null,
  standIn: boolean,
): unknown[] {
  return messages.map((message) => withSignature(message, signatures, standIn));
}
