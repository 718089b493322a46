/**
 * The upstream's chat-completions stream as Responses events, each with its `sequence_number`:
 * `response.created`, `response.in_progress`, then per output item `response.output_item.added`, its
 * deltas and `.done` events, `response.output_item.done`, and at the end `response.completed` (or
 * `response.incomplete` after a length or content-filter stop) holding every item. Items follow one another
 * (reasoning → a `reasoning` item with summary text, text → a `message`, each tool call → a
 * `function_call`); an item closes when content of another kind, or another tool call, begins. Delta
 * events are built as strings once, as they are sent; whole objects only at item and response ends.
 *
 * As for Messages, a tool call's pieces must come in order: a piece for a call whose item has closed is dropped.
 */
import type { ChatUsage, DeltaSink } from './chat-deltas.js';
import { readChunk } from './chat-deltas.js';
import type { FrameSink } from './upstream-lines.js';
import {
  functionCallItem,
  messageItem,
  outputTextPart,
  reasoningItem,
  responseObject,
  responsesUsage,
  responseStatus,
  type ResponseMeta,
} from './responses-items.js';
import type { ToolNames } from './responses-tools.js';

interface OpenItem {
  kind: 'reasoning' | 'message' | 'function_call';
  id: string;
  /** `,"item_id":"…","output_index":n` — the same for every event of the item. */
  ref: string;
  text: string;
  tool: ToolState | null;
}

interface ToolState {
  callId: string;
  upstreamId: boolean;
  name: string | null;
  pending: string;
  item: OpenItem | null;
}

/** One per streamed request; `take()` hands over the event text produced since the last call. */
export class ResponsesStreamWriter implements DeltaSink, FrameSink {
  readonly #meta: ResponseMeta;
  readonly #names: ToolNames;
  readonly #stem: string;
  #out = '';
  #seq = 0;
  #started = false;
  #closed = false;
  #open: OpenItem | null = null;
  readonly #output: Record<string, unknown>[] = [];
  readonly #tools = new Map<number, ToolState>();
  #minted = 0;
  #finish: string | null = null;
  #usage: ChatUsage | null = null;

  constructor(meta: ResponseMeta, names: ToolNames, idStem: string) {
    this.#meta = meta;
    this.#names = names;
    this.#stem = idStem;
  }

  get closed(): boolean {
    return this.#closed;
  }

  take(): string {
    this.#start();
    const out = this.#out;
    this.#out = '';
    return out;
  }

  frame(value: Record<string, unknown>): void {
    this.#start();
    if (!this.#closed) readChunk(value, this);
  }

  done(): void {
    this.close();
  }

  reasoning(text: string): void {
    if (this.#open?.kind !== 'reasoning') {
      const item = this.#openItem('reasoning', 'rs', null);
      this.#event(
        'response.output_item.added',
        `${this.#index(item)},"item":${JSON.stringify(reasoningItem(item.id, ''))}`,
      );
      this.#event(
        'response.reasoning_summary_part.added',
        `${item.ref},"summary_index":0,"part":{"type":"summary_text","text":""}`,
      );
    }
    const item = this.#open as OpenItem;
    item.text += text;
    this.#event(
      'response.reasoning_summary_text.delta',
      `${item.ref},"summary_index":0,"delta":${JSON.stringify(text)}`,
    );
  }

  text(text: string): void {
    if (this.#open?.kind !== 'message') {
      const item = this.#openItem('message', 'msg', null);
      this.#event(
        'response.output_item.added',
        `${this.#index(item)},"item":${JSON.stringify(messageItem(item.id, null, 'in_progress'))}`,
      );
      this.#event(
        'response.content_part.added',
        `${item.ref},"content_index":0,"part":${JSON.stringify(outputTextPart(''))}`,
      );
    }
    const item = this.#open as OpenItem;
    item.text += text;
    this.#event(
      'response.output_text.delta',
      `${item.ref},"content_index":0,"delta":${JSON.stringify(text)},"logprobs":[]`,
    );
  }

  toolCall(index: number, id: string | null, name: string | null, args: string): void {
    let tool = this.#tools.get(index);
    if (tool && id !== null && tool.upstreamId && id !== tool.callId) tool = undefined;
    if (!tool) {
      tool = { callId: id ?? this.#mintCallId(), upstreamId: id !== null, name, pending: '', item: null };
      this.#tools.set(index, tool);
    } else if (tool.name === null && name !== null) tool.name = name;
    if (!tool.item) {
      if (tool.name === null) {
        tool.pending += args;
        return;
      }
      const item = this.#openItem('function_call', 'fc', tool);
      tool.item = item;
      const added = functionCallItem(item.id, tool.callId, tool.name, '', 'in_progress', this.#names);
      this.#event('response.output_item.added', `${this.#index(item)},"item":${JSON.stringify(added)}`);
      args = tool.pending + args;
      tool.pending = '';
    }
    if (args === '' || this.#open !== tool.item) return;
    tool.item.text += args;
    this.#event('response.function_call_arguments.delta', `${tool.item.ref},"delta":${JSON.stringify(args)}`);
  }

  finish(reason: string): void {
    this.#finish = reason;
  }

  usage(usage: ChatUsage): void {
    this.#usage = usage;
  }

  /** Ends the response: closes the open item, then `response.completed` (or `.incomplete`), once. */
  close(): void {
    this.#start();
    if (this.#closed) return;
    this.#closeItem();
    this.#closed = true;
    const { status, incomplete_details } = responseStatus(this.#finish);
    const usage = responsesUsage(this.#usage);
    const response = responseObject(this.#meta, status, { output: this.#output, usage, incomplete_details });
    this.#event(
      status === 'completed' ? 'response.completed' : 'response.incomplete',
      `,"response":${JSON.stringify(response)}`,
    );
  }

  /** Ends the response as failed: `response.failed` with the error and the items so far (no `.completed`). */
  fail(code: string, message: string): void {
    this.#start();
    if (this.#closed) return;
    this.#closed = true;
    const usage = responsesUsage(this.#usage);
    const response = responseObject(this.#meta, 'failed', {
      output: this.#output,
      usage,
      error: { code, message },
    });
    this.#event('response.failed', `,"response":${JSON.stringify(response)}`);
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    const response = `,"response":${JSON.stringify(responseObject(this.#meta, 'in_progress'))}`;
    this.#event('response.created', response);
    this.#event('response.in_progress', response);
  }

  /** `fields` starts with a comma: the event's fields after `type` and `sequence_number`. */
  #event(type: string, fields: string): void {
    this.#out += `event: ${type}\ndata: {"type":"${type}","sequence_number":${this.#seq}${fields}}\n\n`;
    this.#seq += 1;
  }

  #index(item: OpenItem): string {
    return item.ref.slice(item.ref.indexOf(',"output_index"'));
  }

  #mintCallId(): string {
    this.#minted += 1;
    return `call_${this.#stem}_${this.#minted}`;
  }

  #openItem(kind: OpenItem['kind'], prefix: string, tool: ToolState | null): OpenItem {
    this.#closeItem();
    const outputIndex = this.#output.length;
    const id = `${prefix}_${this.#stem}_${outputIndex}`;
    const item: OpenItem = {
      kind,
      id,
      ref: `,"item_id":${JSON.stringify(id)},"output_index":${outputIndex}`,
      text: '',
      tool,
    };
    this.#open = item;
    // Reserve the item's place in `output`; its final form is set when it closes.
    this.#output.push({});
    return item;
  }

  #closeItem(): void {
    const item = this.#open;
    if (!item) return;
    this.#open = null;
    const { ref, text } = item;
    let done: Record<string, unknown>;
    if (item.kind === 'reasoning') {
      this.#event(
        'response.reasoning_summary_text.done',
        `${ref},"summary_index":0,"text":${JSON.stringify(text)}`,
      );
      this.#event(
        'response.reasoning_summary_part.done',
        `${ref},"summary_index":0,"part":{"type":"summary_text","text":${JSON.stringify(text)}}`,
      );
      done = reasoningItem(item.id, text);
    } else if (item.kind === 'message') {
      this.#event(
        'response.output_text.done',
        `${ref},"content_index":0,"text":${JSON.stringify(text)},"logprobs":[]`,
      );
      this.#event(
        'response.content_part.done',
        `${ref},"content_index":0,"part":${JSON.stringify(outputTextPart(text))}`,
      );
      done = messageItem(item.id, text, 'completed');
    } else {
      const tool = item.tool as ToolState;
      this.#event('response.function_call_arguments.done', `${ref},"arguments":${JSON.stringify(text)}`);
      done = functionCallItem(item.id, tool.callId, tool.name ?? '', text, 'completed', this.#names);
    }
    const outputIndex = this.#output.length - 1;
    this.#output[outputIndex] = done;
    this.#event('response.output_item.done', `,"output_index":${outputIndex},"item":${JSON.stringify(done)}`);
  }
}
