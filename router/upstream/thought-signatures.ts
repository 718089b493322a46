/**
 * The thought signatures Gemini gives its tool calls (`extra_content.google.thought_signature`), kept
 * between the router and Google. Google wants each one back with its call on the next turn, and warns
 * that a call sent back without its own may cost the model quality; agents cannot keep them (the Messages
 * and Responses protocols have no place for them, chat agents drop fields they do not know), and every
 * other provider has no use for them. So the router remembers each signature by its call's id as the
 * answer leaves, takes the ones an agent sent back out of its request (remembering them), and Google's
 * body preset puts them back (`gemini-conversation.ts`). Held in memory only, bounded: after a restart,
 * or for a call no Gemini made, Google's stand-in does.
 */
import { isRecord } from '../gate/safe-json.js';

/** The signature a tool call carries, or null. */
export function thoughtSignatureOf(call: unknown): string | null {
  if (!isRecord(call) || !isRecord(call.extra_content)) return null;
  const google = call.extra_content.google;
  return isRecord(google) && typeof google.thought_signature === 'string' ? google.thought_signature : null;
}

/** How much the memory holds at most: signatures, and their characters (a signature is a few KB at most). */
export interface SignatureLimits {
  calls: number;
  chars: number;
}

const LIMITS: SignatureLimits = { calls: 2048, chars: 8 * 1024 * 1024 };

/** Signatures by tool call id; the oldest go first when a limit is reached. */
export class ThoughtSignatures {
  readonly #byCall = new Map<string, string>();
  readonly #limits: SignatureLimits;
  #chars = 0;

  constructor(limits: SignatureLimits = LIMITS) {
    this.#limits = limits;
  }

  /** The signature remembered for call `id`. */
  of(id: string): string | undefined {
    return this.#byCall.get(id);
  }

  /** Remembers a call's signature (a call without an id, or without a signature, is passed over). */
  remember(call: unknown): void {
    const signature = thoughtSignatureOf(call);
    if (signature === null || !isRecord(call) || typeof call.id !== 'string' || call.id === '') return;
    this.#forget(call.id);
    this.#byCall.set(call.id, signature);
    this.#chars += signature.length;
    for (const [id] of this.#byCall) {
      if (this.#byCall.size <= this.#limits.calls && this.#chars <= this.#limits.chars) break;
      this.#forget(id);
    }
  }

  /** Remembers the signatures of a JSON answer's tool calls (its first choice's). */
  rememberAnswer(answer: unknown): void {
    if (!isRecord(answer) || !Array.isArray(answer.choices)) return;
    const choice: unknown = answer.choices[0];
    const message = isRecord(choice) ? choice.message : null;
    if (isRecord(message) && Array.isArray(message.tool_calls))
      for (const call of message.tool_calls) this.remember(call);
  }

  /**
   * Takes the signatures out of the tool calls of a chat body's assistant turns, remembering them: what
   * goes to other providers carries none. Turns that carry one are replaced by copies; the rest is left.
   */
  setAside(body: Record<string, unknown>): void {
    const { messages } = body;
    if (!Array.isArray(messages) || !messages.some(signsACall)) return;
    body.messages = messages.map((message: unknown) => {
      if (!signsACall(message)) return message;
      const calls = message.tool_calls as unknown[];
      for (const call of calls) this.remember(call);
      return { ...message, tool_calls: calls.map(unsigned) };
    });
  }

  #forget(id: string): void {
    const signature = this.#byCall.get(id);
    if (signature === undefined) return;
    this.#byCall.delete(id);
    this.#chars -= signature.length;
  }
}

/** An assistant turn with a tool call that carries a signature. */
function signsACall(message: unknown): message is Record<string, unknown> {
  return (
    isRecord(message) &&
    message.role === 'assistant' &&
    Array.isArray(message.tool_calls) &&
    message.tool_calls.some((call) => thoughtSignatureOf(call) !== null)
  );
}

/** `call` without its signature (and without what that leaves empty: Google's part, `extra_content`). */
function unsigned(call: unknown): unknown {
  if (thoughtSignatureOf(call) === null || !isRecord(call) || !isRecord(call.extra_content)) return call;
  const { google, ...extra } = call.extra_content;
  const { thought_signature: _signature, ...googleRest } = google as Record<string, unknown>;
  if (Object.keys(googleRest).length > 0) extra.google = googleRest;
  const { extra_content: _extra, ...rest } = call;
  return Object.keys(extra).length === 0 ? rest : { ...rest, extra_content: extra };
}
