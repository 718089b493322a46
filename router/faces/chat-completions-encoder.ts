import type { AnswerEncoder } from '../engine/answer-encoder.js';
import type { ErrorAnswer } from '../engine/final-answer.js';
import type { FailureKind } from '../gate/failure-kinds.js';

/**
 * The chat-completions face: upstreams speak it too, so what passed the gate goes out as it came, byte for
 * byte (no parse, no copy per chunk). Errors are OpenAI-shaped; a stream that breaks after content ends
 * with the router's own error frame.
 */
export class ChatCompletionsEncoder implements AnswerEncoder {
  readonly face = 'chat';

  json(completion: Buffer | string): Buffer | string {
    return completion;
  }

  streamLines(lines: Uint8Array): Uint8Array {
    return lines;
  }

  streamClose(): null {
    return null;
  }

  streamFailure(kind: FailureKind, model: string): string {
    const error = {
      message: `fcm-router: the stream from ${model} failed after part of the answer was sent (${kind}); this answer is incomplete`,
      type: 'upstream_error',
      code: kind,
    };
    return `data: ${JSON.stringify({ error })}\n\n`;
  }

  error(answer: ErrorAnswer): string {
    const { message, type, code } = answer;
    return JSON.stringify({ error: { message, type, code, param: answer.param ?? null } });
  }
}
