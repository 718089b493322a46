/**
 * The request that asks the next model to finish an answer another model began: the conversation as the
 * agent sent it, the answer so far as the assistant's own words, and a short instruction to go on exactly
 * where it stopped. The partial answer is not sent as a prefill (a last assistant message the model is to
 * extend): many models reject or ignore one. Pure.
 */
import { BYTES_PER_TOKEN, type RequestNeeds } from '../../faces/request-size.js';
import { hasText } from '../../gate/answer-rules.js';
import { isRecord } from '../../gate/safe-json.js';
import type { AnswerSoFar } from './answer-so-far.js';

/** The instruction after an answer that stopped in its text. */
export const CONTINUE_TEXT =
  'Your reply above was cut off before it was finished. Continue it from exactly where it stopped: start ' +
  'with the very next characters, repeat nothing that is already written, and add no introduction.';

/**
 * How the instruction after an answer that stopped in its thoughts begins: it was cut, or it ended before
 * the model said anything.
 */
export const THOUGHTS_CUT = 'Your reply to the message above stopped while you were still thinking.';

/** The instruction after an answer that stopped while the model was still thinking (no text yet). */
export function continueThoughts(reasoning: string): string {
  return `${THOUGHTS_CUT} Your thoughts so far:\n\n${reasoning}\n\nGo on from there without repeating them, then give your answer.`;
}

/**
 * The chat-completions body that continues `soFar` after the conversation of `body`; null when the body has
 * no messages to continue. With nothing useful so far (no thoughts, no text but blank) the body is the
 * agent's own (the answer starts anew).
 */
export function continuationBody(
  body: Readonly<Record<string, unknown>>,
  soFar: Pick<AnswerSoFar, 'text' | 'reasoning'>,
): Record<string, unknown> | null {
  if (!Array.isArray(body.messages)) return null;
  const messages: unknown[] = [...(body.messages as unknown[])];
  // Blank text so far is no answer begun: an assistant message of it is refused by some upstreams (Google's).
  if (hasText(soFar.text)) {
    const last = messages.at(-1);
    // The agent's own prefill of the answer stays its beginning.
    if (isRecord(last) && last.role === 'assistant' && typeof last.content === 'string' && !last.tool_calls)
      messages[messages.length - 1] = { ...last, content: last.content + soFar.text };
    else messages.push({ role: 'assistant', content: soFar.text });
    messages.push({ role: 'user', content: CONTINUE_TEXT });
  } else if (soFar.reasoning !== '') {
    messages.push({ role: 'user', content: continueThoughts(soFar.reasoning) });
  } else return { ...body };
  return { ...body, messages };
}

/** The request's size with the answer so far and the instruction added to its input. */
export function continuationNeeds(
  needs: RequestNeeds,
  soFar: Pick<AnswerSoFar, 'text' | 'reasoning'>,
): RequestNeeds {
  const added = Buffer.byteLength(soFar.text) + Buffer.byteLength(soFar.reasoning) + CONTINUE_TEXT.length;
  return { ...needs, input: needs.input + Math.ceil(added / BYTES_PER_TOKEN) };
}
