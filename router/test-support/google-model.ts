/**
 * A Gemini 3 model on Google's OpenAI-compatible API, for tests: it signs each turn of tool calls it makes
 * (a thought signature on the first call, `signatureFor` its id), and refuses a request whose current turn
 * (from the last user message on) holds an assistant turn of tool calls without a thought signature on its
 * first call, with Google's 400 in Google's list-wrapped shape; anything else gets `agentModel`'s answer.
 */
import { Buffer } from 'node:buffer';
import { thoughtSignatureOf } from '../upstream/thought-signatures.js';
import { agentModel } from './agent-model.js';
import { jsonBody, type Behaviour } from './upstream-behaviours.js';

type Message = { role?: unknown; tool_calls?: unknown };

/** The signature this model gives its tool call `id` (Google's are opaque base64 too). */
export const signatureFor = (id: string): string =>
  `Ci${Buffer.from(`thoughts for ${id}`).toString('base64')}`;

/** The assistant turns of `messages` that call tools with no signature on their first call. */
export function unsignedToolTurns(messages: readonly Message[]): Message[] {
  return messages.filter(
    (message) =>
      message.role === 'assistant' &&
      Array.isArray(message.tool_calls) &&
      message.tool_calls.length > 0 &&
      thoughtSignatureOf(message.tool_calls[0]) === null,
  );
}

/** The signature on the first call of each assistant turn that calls tools, with that call's id. */
export function toolTurnSignatures(
  messages: readonly Message[],
): { id: unknown; signature: string | null }[] {
  return messages.flatMap((message) => {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return [];
    const first: unknown = message.tool_calls[0];
    const id = typeof first === 'object' && first !== null ? (first as { id?: unknown }).id : undefined;
    return first === undefined ? [] : [{ id, signature: thoughtSignatureOf(first) }];
  });
}

/** What Google says of a request whose current turn lost a signature, or null when it takes it. */
function googleRefusal(messages: readonly Message[]): string | null {
  const turnStart = messages.findLastIndex((message) => message.role === 'user');
  if (unsignedToolTurns(messages.slice(turnStart + 1)).length === 0) return null;
  return 'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.';
}

/** The model: `agentModel`'s answers, its calls signed, to what Google takes; Google's 400 to the rest. */
export function geminiOnGoogle(): Behaviour {
  const answer = agentModel({ callExtra: (id) => ({ google: { thought_signature: signatureFor(id) } }) });
  return (res, call) => {
    const messages = Array.isArray(call.body?.messages) ? (call.body.messages as Message[]) : [];
    const refusal = googleRefusal(messages);
    if (refusal === null) return answer(res, call);
    const error = { code: 400, message: refusal, status: 'INVALID_ARGUMENT' };
    return jsonBody([{ error }], 400)(res, call);
  };
}
