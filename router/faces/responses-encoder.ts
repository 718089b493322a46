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
import { ResponsesStreamWriter, type ResponsesWriterOptions, type ServedItems } from './responses-stream.js';
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
  /** Reasoning items show the reasoning as summary text (the default); `false`: their summary is empty. */
  summary?: boolean;
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
  readonly #writer: ResponsesWriterOptions;
  readonly #stream = new TranslatedStream(() => new ResponsesStreamWriter(this.#meta, this.#writer));

  constructor(options: ResponsesEncoderOptions) {
    const { idStem, toolNames: names } = options;
    this.#meta = { id: `resp_${idStem}`, createdAt: options.createdAt, model: options.model };
    this.#writer = { names, idStem, summary: options.summary ?? true, onServed: options.onServed ?? null };
  }

  json(completion: GatedCompletion): string {
    const answer = collectCompletion(completion.body);
    const output: Record<string, unknown>[] = [];
    const { names, idStem, summary, onServed } = this.#writer;
    const id = (kind: ItemKind): string => `${ITEM_PREFIX[kind]}_${idStem}_${output.length}`;
    if (answer.reasoning !== '') output.push(reasoningItem(id('reasoning'), summary ? answer.reasoning : ''));
    if (answer.text !== '') output.push(messageItem(id('message'), answer.text, 'completed'));
    answer.toolCalls.forEach((call, i) => {
      const callId = call.id ?? `call_${idStem}_${i + 1}`;
      const itemId = id(callKind(call.name, names));
      const parts = { id: itemId, callId, chatName: call.name, args: call.arguments };
      output.push(toolCallItem(parts, 'completed', names));
    });
    const { status, incomplete_details } = responseStatus(answer.finishReason);
    const usage = responsesUsage(answer.usage);
    const body = JSON.stringify(responseObject(this.#meta, status, { output, usage, incomplete_details }));
    onServed?.(output);
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
