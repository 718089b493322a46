/**
 * One output item of a streamed Responses answer and the events it writes: when it opens
 * (`response.output_item.added`, and the part it holds), for each piece (a `.delta` event), and when it
 * closes (the `.done` events and `response.output_item.done`). Delta events are built as strings once: the
 * text around the piece and its sequence number is fixed when the item opens.
 *
 * A freeform tool's call (`custom_tool_call`) is the exception: its `input` is a string inside the chat
 * call's JSON arguments, known only once they are whole, so it is written in one delta when the item closes
 * (with checked tool calls, the default, a call comes whole anyway).
 */
import {
  agentName,
  messageItem,
  outputTextPart,
  reasoningItem,
  toolCallItem,
  type ItemKind,
} from './responses-items.js';
import { customCallInput } from './responses-custom-tools.js';
import { hasText, normalArguments } from '../gate/answer-rules.js';
import type { ToolNames } from './responses-tools.js';
import type { TrackedCall } from './tool-call-tracker.js';

/** Writes one event: its type, and its fields after `type` and `sequence_number` (starting with a comma). */
export type Emit = (type: string, fields: string) => void;

/** An event's text up to its sequence number; the event goes on with its other fields and `}\n\n`. */
export const eventHead = (type: string): string =>
  `event: ${type}\ndata: {"type":"${type}","sequence_number":`;

/** Each kind's delta event: its type, its fields between the item's reference and the piece, and after it. */
const DELTAS: Record<ItemKind, { type: string; before: string; after: string }> = {
  reasoning: {
    type: 'response.reasoning_summary_text.delta',
    before: ',"summary_index":0,"delta":',
    after: '}\n\n',
  },
  message: {
    type: 'response.output_text.delta',
    before: ',"content_index":0,"delta":',
    after: ',"logprobs":[]}\n\n',
  },
  function_call: { type: 'response.function_call_arguments.delta', before: ',"delta":', after: '}\n\n' },
  custom_tool_call: { type: 'response.custom_tool_call_input.delta', before: ',"delta":', after: '}\n\n' },
};

/** The arguments of a call that has none. */
const EMPTY_OBJECT = normalArguments('');

/** What an item needs besides its kind, id and place. */
export interface ItemContext {
  /** The tool call a `function_call` or `custom_tool_call` item writes, else null. */
  call: TrackedCall | null;
  names: ToolNames;
  /** A reasoning item shows its text as summary text (the request asked for a summary); else none is written. */
  summary: boolean;
}

export class StreamedItem {
  readonly kind: ItemKind;
  readonly id: string;
  /** The tool call a `function_call` or `custom_tool_call` item writes, else null. */
  readonly call: TrackedCall | null;
  readonly #names: ToolNames;
  /** A reasoning item with summary text (its summary part's events are written). */
  readonly #summary: boolean;
  /** `,"output_index":n` */
  readonly #at: string;
  /** `,"item_id":"…","output_index":n`: the same in every event of the item. */
  readonly #ref: string;
  /** A delta event's text before its sequence number, between it and the piece, and after the piece. */
  readonly #deltaHead: string;
  readonly #deltaMiddle: string;
  readonly #deltaEnd: string;
  #text = '';

  constructor(kind: ItemKind, id: string, outputIndex: number, context: ItemContext) {
    this.kind = kind;
    this.id = id;
    this.call = context.call;
    this.#names = context.names;
    this.#summary = kind === 'reasoning' && context.summary;
    this.#at = `,"output_index":${outputIndex}`;
    this.#ref = `,"item_id":${JSON.stringify(id)}${this.#at}`;
    const delta = DELTAS[kind];
    this.#deltaHead = eventHead(delta.type);
    this.#deltaMiddle = this.#ref + delta.before;
    this.#deltaEnd = delta.after;
  }

  /** The item as it stands. */
  snapshot(status: 'in_progress' | 'completed' | 'incomplete'): Record<string, unknown> {
    if (this.kind === 'reasoning') return reasoningItem(this.id, this.#text);
    if (this.kind === 'message')
      return messageItem(this.id, status === 'in_progress' ? null : this.#text, status);
    const call = this.call as TrackedCall;
    const parts = { id: this.id, callId: call.id, chatName: call.name ?? '', args: this.#text };
    return toolCallItem(parts, status, this.#names);
  }

  open(emit: Emit): void {
    emit('response.output_item.added', `${this.#at},"item":${JSON.stringify(this.snapshot('in_progress'))}`);
    if (this.#summary) {
      emit(
        'response.reasoning_summary_part.added',
        `${this.#ref},"summary_index":0,"part":{"type":"summary_text","text":""}`,
      );
    } else if (this.kind === 'message') {
      emit(
        'response.content_part.added',
        `${this.#ref},"content_index":0,"part":${JSON.stringify(outputTextPart(''))}`,
      );
    }
  }

  /**
   * Adds `piece` to the item: its delta event's text, as event number `sequence`; null when the item writes
   * it only at its close (a custom tool's call).
   */
  append(piece: string, sequence: number): string | null {
    this.#text += piece;
    if (this.kind === 'custom_tool_call') return null;
    return this.#deltaHead + sequence + this.#deltaMiddle + JSON.stringify(piece) + this.#deltaEnd;
  }

  /** Writes the closing events; returns the finished item. */
  close(emit: Emit): Record<string, unknown> {
    if (this.kind === 'function_call' && !hasText(this.#text)) this.#emptyArguments(emit);
    const text = JSON.stringify(this.#text);
    if (this.#summary) {
      emit('response.reasoning_summary_text.done', `${this.#ref},"summary_index":0,"text":${text}`);
      const part = `{"type":"summary_text","text":${text}}`;
      emit('response.reasoning_summary_part.done', `${this.#ref},"summary_index":0,"part":${part}`);
    } else if (this.kind === 'message') {
      emit('response.output_text.done', `${this.#ref},"content_index":0,"text":${text},"logprobs":[]`);
      const part = JSON.stringify(outputTextPart(this.#text));
      emit('response.content_part.done', `${this.#ref},"content_index":0,"part":${part}`);
    } else if (this.kind !== 'reasoning') this.#closeCall(emit, text);
    const done = this.snapshot('completed');
    emit('response.output_item.done', `${this.#at},"item":${JSON.stringify(done)}`);
    return done;
  }

  /**
   * A function call that ended with no arguments gets `{}` as its last delta: the `.done` event and the item
   * then say what the deltas add up to, JSON a client can parse (a checked call comes whole, so with them).
   */
  #emptyArguments(emit: Emit): void {
    this.#text += EMPTY_OBJECT;
    emit(DELTAS.function_call.type, this.#deltaMiddle + JSON.stringify(EMPTY_OBJECT));
  }

  /** A tool call's `.done` event (a custom tool's input in one delta first); `text` is its arguments as JSON. */
  #closeCall(emit: Emit, text: string): void {
    const chatName = this.call?.name ?? '';
    if (this.kind === 'function_call') {
      const name = JSON.stringify(agentName(chatName, this.#names));
      emit('response.function_call_arguments.done', `${this.#ref},"name":${name},"arguments":${text}`);
      return;
    }
    const input = JSON.stringify(customCallInput(this.#text));
    if (input !== '""') emit(DELTAS.custom_tool_call.type, this.#deltaMiddle + input);
    emit('response.custom_tool_call_input.done', `${this.#ref},"input":${input}`);
  }
}
