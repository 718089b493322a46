/**
 * The Anthropic Messages face's answer encoder: a served chat completion (or stream) in Anthropic's words,
 * the router's errors in Anthropic's error shape.
 */
import type { ErrorAnswer, FramesEncoder } from './answer-encoder.js';
import type { FailureKind } from '../gate/failure-kinds.js';
import type { GatedCompletion } from '../gate/response-gate.js';
import type { UpstreamFrame } from '../gate/stream-part.js';
import { collectCompletion } from './answer-collector.js';
import { brokenStreamMessage } from './chat-face.js';
import { anthropicErrorBody, anthropicErrorType, anthropicStreamErrorType } from './anthropic-errors.js';
import { anthropicMessage, type MessageFacts, type ThinkingShown } from './anthropic-message.js';
import { AnthropicStreamWriter } from './anthropic-stream.js';
import { TranslatedStream } from './translated-stream.js';

/** What a Messages encoder needs to know of its request. */
export interface MessagesEncoderOptions {
  /** The stem of the message and minted tool ids (`freshIdStem()`, unique per answer). */
  idStem: string;
  /** The model name the agent asked for, echoed in `model`. */
  model: string;
  /** How the answer's reasoning is shown (`ThinkingShown`); `off` when absent. */
  thinking?: ThinkingShown;
  /**
   * The router's estimate of the request's input tokens: `message_start` reports it, and the final usage
   * does when the upstream reports none. 0 when absent.
   */
  inputTokens?: number;
  /** The request's `stop_sequences`, to name the one that ended the answer; none when absent. */
  stopSequences?: readonly string[];
}

/** One per Messages request. */
export class MessagesEncoder implements FramesEncoder {
  readonly face = 'messages' as const;
  readonly reads = 'frames' as const;
  readonly #facts: MessageFacts;
  readonly #stream = new TranslatedStream(() => new AnthropicStreamWriter(this.#facts));

  constructor(options: MessagesEncoderOptions) {
    this.#facts = {
      model: options.model,
      messageId: `msg_${options.idStem}`,
      toolIdStem: options.idStem,
      thinking: options.thinking ?? 'off',
      inputTokens: options.inputTokens ?? 0,
      stopSequences: options.stopSequences ?? [],
    };
  }

  json(completion: GatedCompletion): string {
    return JSON.stringify(anthropicMessage(collectCompletion(completion.body), this.#facts));
  }

  streamFrames(frames: readonly UpstreamFrame[]): string | null {
    return this.#stream.frames(frames);
  }

  streamClose(): string | null {
    return this.#stream.close();
  }

  /** An `error` event after what was sent; no `message_stop`, so the client knows the message is cut short. */
  streamFailure(kind: FailureKind, model: string): string {
    const before = this.#stream.ended ? '' : this.#stream.writer.take();
    const error = anthropicErrorBody(anthropicStreamErrorType(kind), brokenStreamMessage(kind, model));
    return `${before}event: error\ndata: ${error}\n\n`;
  }

  error(answer: ErrorAnswer): string {
    // Anthropic's own words, which Claude Code answers by compacting the conversation.
    const message = answer.tooLong
      ? `prompt is too long: ${answer.tooLong.tokens} tokens > ${answer.tooLong.maximum} maximum`
      : answer.message;
    return anthropicErrorBody(anthropicErrorType(answer.status), message);
  }
}
