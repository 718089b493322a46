/**
 * The chat-completions face: the upstream already speaks it, so answers pass through as they came (a whole
 * answer's tool calls are given the ids and arguments a stream would give them); the router's own errors
 * are written here, in OpenAI's shape.
 */
import type { BytesEncoder, ErrorAnswer, SentTail } from './answer-encoder.js';
import type { FailureKind } from '../gate/failure-kinds.js';
import type { GatedCompletion } from '../gate/response-gate.js';
import { repairWholeToolCalls } from './chat-tool-calls.js';

/** OpenAI's error body: `{ error: { message, type, code, param } }`. */
export function openAiErrorBody(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): string {
  return JSON.stringify({ error: { message, type, code, param } });
}

/** The message that ends a stream which broke after part of the answer reached the client. */
export function brokenStreamMessage(kind: string, model: string): string {
  if (kind === 'router_stopping')
    return `fcm-router: the router stopped before the stream from ${model} finished (${kind}); this answer is incomplete`;
  return `fcm-router: the stream from ${model} failed after part of the answer was sent (${kind}); this answer is incomplete`;
}

/** The router's own SSE frame that ends a chat-completions stream which broke after content reached the client. */
export function chatMidStreamErrorFrame(kind: string, model: string): string {
  const error = { message: brokenStreamMessage(kind, model), type: 'upstream_error', code: kind };
  return `data: ${JSON.stringify({ error })}\n\n`;
}

/** The line that ends a chat-completions stream. */
const CHAT_DONE = 'data: [DONE]\n\n';

/** Passes the upstream's chat-completions answer through as it came (same objects, no copy unless repaired). */
export class ChatEncoder implements BytesEncoder {
  readonly face = 'chat' as const;
  readonly reads = 'bytes' as const;

  json(completion: GatedCompletion): Buffer | string {
    return repairWholeToolCalls(completion.body) ? JSON.stringify(completion.body) : completion.text;
  }

  streamBytes(lines: Uint8Array): Uint8Array {
    return lines;
  }

  /**
   * A chat-completions stream ends with `[DONE]`: the router's own when the upstream left it out, after the
   * line ends that close the last event when its lines stopped short of them.
   */
  streamClose(sent: SentTail): string | null {
    return sent.done ? null : '\n'.repeat(Math.max(0, 2 - sent.lineEnds)) + CHAT_DONE;
  }

  streamFailure(kind: FailureKind, model: string): string {
    return chatMidStreamErrorFrame(kind, model);
  }

  error(answer: ErrorAnswer): string {
    return openAiErrorBody(answer.message, answer.type, answer.code, answer.param ?? null);
  }
}
