/**
 * The upstream's chat-completions stream as Responses events, each with its `sequence_number`:
 * `response.created`, `response.in_progress`, then per output item `response.output_item.added`, its
 * deltas and `.done` events, `response.output_item.done`, and at the end `response.completed` (or
 * `response.incomplete` after a length or content-filter stop) holding every item. Items follow one another
 * (reasoning → a `reasoning` item, with summary text if the request asked for a summary; text → a
 * `message`; each tool call → a `function_call`, or a `custom_tool_call` for a freeform tool); an item
 * closes when content of another kind, or another tool call, begins. Whole objects are serialised only when an item or the response ends.
 *
 * As for Messages, a tool call's pieces must come in order: a piece for a call whose item has closed is dropped.
 */
import type { FaceStreamWriter, StreamEnding } from './translated-stream.js';
import {
  callKind,
  ITEM_PREFIX,
  responseObject,
  responsesUsage,
  responseStatus,
  type ItemKind,
  type ResponseMeta,
} from './responses-items.js';
import { eventHead, StreamedItem, type Emit } from './responses-stream-item.js';
import type { ToolNames } from './responses-tools.js';
import { ToolCallTracker, type TrackedCall } from './tool-call-tracker.js';

/** Receives a served answer's output items (the face keeps them for later item references). */
export type ServedItems = (output: readonly Record<string, unknown>[]) => void;

/** What a stream writer needs of its request besides the response's meta. */
export interface ResponsesWriterOptions {
  /** Flattened namespace function names and custom tools mapped back. */
  names: ToolNames;
  /** The stem of item and minted call ids. */
  idStem: string;
  /** Reasoning items show the reasoning as summary text; else their summary is empty. */
  summary: boolean;
  onServed: ServedItems | null;
}

/** One per streamed request, driven by a `TranslatedStream`. */
export class ResponsesStreamWriter implements FaceStreamWriter {
  readonly #meta: ResponseMeta;
  readonly #names: ToolNames;
  readonly #stem: string;
  readonly #summary: boolean;
  readonly #tools: ToolCallTracker;
  #out = '';
  #seq = 0;
  #open: StreamedItem | null = null;
  /** The items so far; the open one's place holds its final form once it closes. */
  readonly #output: Record<string, unknown>[] = [];
  #minted = 0;
  readonly #onServed: ServedItems | null;

  constructor(meta: ResponseMeta, options: ResponsesWriterOptions) {
    this.#meta = meta;
    this.#names = options.names;
    this.#stem = options.idStem;
    this.#summary = options.summary;
    this.#onServed = options.onServed;
    this.#tools = new ToolCallTracker(() => {
      this.#minted += 1;
      return `call_${this.#stem}_${this.#minted}`;
    });
  }

  take(): string {
    const out = this.#out;
    this.#out = '';
    return out;
  }

  reasoning(text: string): void {
    const item = this.#open?.kind === 'reasoning' ? this.#open : this.#openItem('reasoning', null);
    if (this.#summary) this.#append(item, text);
  }

  text(text: string): void {
    const item = this.#open?.kind === 'message' ? this.#open : this.#openItem('message', null);
    this.#append(item, text);
  }

  toolCall(index: number, id: string | null, name: string | null, args: string): void {
    const step = this.#tools.piece(index, id, name, args);
    if (!step) return;
    if (step.start) this.#openItem(callKind(step.call.name ?? '', this.#names), step.call);
    const item = this.#open;
    if (step.args !== '' && item && item.call === step.call) this.#append(item, step.args);
  }

  /** Ends the response: closes the open item, then `response.completed` (or `.incomplete`); the items go to `onServed`. */
  end(ending: StreamEnding): void {
    this.#closeItem();
    const { status, incomplete_details } = responseStatus(ending.finish);
    const usage = responsesUsage(ending.usage);
    const response = responseObject(this.#meta, status, { output: this.#output, usage, incomplete_details });
    const type = status === 'completed' ? 'response.completed' : 'response.incomplete';
    this.#emit(type, `,"response":${JSON.stringify(response)}`);
    this.#onServed?.(this.#output);
  }

  /** Ends the response as failed: `response.failed` with the error and the items so far (no `.completed`). */
  fail(error: { code: string; message: string }, upstream: StreamEnding): void {
    // The item being written when the stream broke stays in the output as far as it got.
    if (this.#open) this.#output[this.#output.length - 1] = this.#open.snapshot('incomplete');
    this.#open = null;
    const usage = responsesUsage(upstream.usage);
    const response = responseObject(this.#meta, 'failed', { output: this.#output, usage, error });
    this.#emit('response.failed', `,"response":${JSON.stringify(response)}`);
  }

  readonly #emit: Emit = (type, fields) => {
    this.#out += `${eventHead(type)}${this.#seq}${fields}}\n\n`;
    this.#seq += 1;
  };

  open(): void {
    const response = `,"response":${JSON.stringify(responseObject(this.#meta, 'in_progress'))}`;
    this.#emit('response.created', response);
    this.#emit('response.in_progress', response);
  }

  #append(item: StreamedItem, piece: string): void {
    const event = item.append(piece, this.#seq);
    if (event === null) return;
    this.#out += event;
    this.#seq += 1;
  }

  #openItem(kind: ItemKind, call: TrackedCall | null): StreamedItem {
    this.#closeItem();
    const outputIndex = this.#output.length;
    const id = `${ITEM_PREFIX[kind]}_${this.#stem}_${outputIndex}`;
    const item = new StreamedItem(kind, id, outputIndex, {
      call,
      names: this.#names,
      summary: this.#summary,
    });
    this.#open = item;
    this.#output.push({});
    item.open(this.#emit);
    return item;
  }

  #closeItem(): void {
    const item = this.#open;
    if (!item) return;
    this.#open = null;
    this.#output[this.#output.length - 1] = item.close(this.#emit);
  }
}
