/**
 * The OpenAI Responses face's answer encoder: a served chat completion (or stream) as a Responses answer,
 * the router's errors in OpenAI's error shape, a stream broken after content as `response.failed`.
 */
import type { ErrorAnswer, FramesEncoder } from './answer-encoder.js';
import type { FailureKind } from '../gate/failure-kinds.js';
import type { GatedCompletion } from '../gate/response-gate.js';
import type { UpstreamFrame } from '../gate/stream-part.js';
import { collectCompletion } from './answer-collector.js';
import { brokenStreamMessage, openAiErrorBody } from './chat-face.js';
import {
  callKind,
  ITEM_PREFIX,
  messageItem,
  reasoningItem,
  responseObject,
  responsesUsage,
  responseStatus,
  toolCallItem,
  type ItemKind,
  type ResponseMeta,
} from './responses-items.js';
import { ResponsesStreamWriter, type ServedItems } from './responses-stream.js';
import type { ToolNames } from './responses-tools.js';
import { TranslatedStream } from './translated-stream.js';

/** What a Responses encoder needs to know of its request. */
export interface ResponsesEncoderOptions {
  /**
   * The stem of the response, item and minted call ids (`freshIdStem()`): ids that items are kept under must
   * be unique.
   */
  idStem: string;
  /** The model name the agent asked for, echoed in `model`. */
  model: string;
  /** When the request came, in Unix seconds (`created_at`). */
  createdAt: number;
  /** From the request's translation: flattened namespace function names and custom tools mapped back. */
  toolNames: ToolNames;
  /** Called with the answer's output items once it is served whole (not after a broken stream). */
  onServed?: ServedItems;
}

/** The `code` of `response.failed`: Codex waits and retries on `rate_limit_exceeded`. */
function failureCode(kind: FailureKind): string {
  return kind === 'rate_limit' ? 'rate_limit_exceeded' : 'server_error';
}

/** One per Responses request. */
export class ResponsesEncoder implements FramesEncoder {
  readonly face = 'responses' as const;
  readonly reads = 'frames' as const;
  readonly #meta: ResponseMeta;
  readonly #names: ToolNames;
  readonly #stem: string;
  readonly #onServed: ServedItems | null;
  readonly #stream = new TranslatedStream(
    () => new ResponsesStreamWriter(this.#meta, this.#names, this.#stem, this.#onServed),
  );

  constructor(options: ResponsesEncoderOptions) {
    this.#stem = options.idStem;
    this.#meta = { id: `resp_${this.#stem}`, createdAt: options.createdAt, model: options.model };
    this.#names = options.toolNames;
    this.#onServed = options.onServed ?? null;
  }

  json(completion: GatedCompletion): string {
    const answer = collectCompletion(completion.body);
    const output: Record<string, unknown>[] = [];
    const id = (kind: ItemKind): string => `${ITEM_PREFIX[kind]}_${this.#stem}_${output.length}`;
    if (answer.reasoning !== '') output.push(reasoningItem(id('reasoning'), answer.reasoning));
    if (answer.text !== '') output.push(messageItem(id('message'), answer.text, 'completed'));
    answer.toolCalls.forEach((call, i) => {
      const callId = call.id ?? `call_${this.#stem}_${i + 1}`;
      const itemId = id(callKind(call.name, this.#names));
      const parts = { id: itemId, callId, chatName: call.name, args: call.arguments };
      output.push(toolCallItem(parts, 'completed', this.#names));
    });
    const { status, incomplete_details } = responseStatus(answer.finishReason);
    const usage = responsesUsage(answer.usage);
    const body = JSON.stringify(responseObject(this.#meta, status, { output, usage, incomplete_details }));
    this.#onServed?.(output);
    return body;
  }

  streamFrames(frames: readonly UpstreamFrame[]): string | null {
    return this.#stream.frames(frames);
  }

  streamClose(): string | null {
    return this.#stream.close();
  }

  streamFailure(kind: FailureKind, model: string): string {
    const error = { code: failureCode(kind), message: brokenStreamMessage(kind, model) };
    return this.#stream.fail((writer, upstream) => writer.fail(error, upstream));
  }

  error(answer: ErrorAnswer): string {
    return openAiErrorBody(answer.message, answer.type, answer.code, answer.param ?? null);
  }
}
