/**
 * Responses `input` items → chat-completions messages. `developer` and `system` messages become system
 * messages; an assistant message and the `function_call` items after it become one assistant message with
 * `tool_calls` (chat wants parallel calls together); a `function_call_output` becomes a `tool` message with
 * the same `call_id`; a freeform tool's `custom_tool_call` and `custom_tool_call_output` go as a function's
 * do, its `input` as the arguments `{"input": …}` (`responses-custom-tools.ts`); earlier reasoning,
 * compactions, web searches and blank text (no `hasText`) are dropped. A tool output, a user message or
 * assistant text after calls ends an assistant turn, and nothing else: chat wants each call's result right
 * after the message that made it, and what is dropped, or goes to the front as system text, is no message
 * between them. Item references are expanded before (`responses-references.ts`).
 */
import type { ChatContentPart, ChatMessage, ChatToolCall } from './chat-request.js';
import { hasText } from '../gate/answer-rules.js';
import { EMPTY_TOOL_RESULT } from './text-content.js';
import { refuse, type FieldError } from './face-validation.js';
import type { ResponsesInputItem, ResponsesPart } from './responses-schema.js';
import { flatName } from './responses-tools.js';
import { customCallArguments } from './responses-custom-tools.js';

type Converted = { ok: true; messages: ChatMessage[] } | FieldError;

/** A part as chat content, or a refusal naming it. */
function chatPart(part: ResponsesPart, at: string): ChatContentPart | FieldError {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_image': {
      if (!part.image_url)
        return refuse(`${at}.image_url`, 'is required: file ids need the Responses service');
      const image: ChatContentPart = { type: 'image_url', image_url: { url: part.image_url } };
      if (part.detail) image.image_url.detail = part.detail;
      return image;
    }
    case 'input_file':
      return refuse(at, 'is an input_file; chat-completions upstreams take text and images only');
  }
}

/** Content as chat parts, blank text left out (no `hasText`), or a refusal naming the part at fault. */
function chatParts(content: string | ResponsesPart[], at: string): ChatContentPart[] | FieldError {
  if (typeof content === 'string') return hasText(content) ? [{ type: 'text', text: content }] : [];
  const parts: ChatContentPart[] = [];
  for (const [i, part] of content.entries()) {
    const converted = chatPart(part, `${at}[${i}]`);
    if ('ok' in converted) return converted;
    if (converted.type !== 'text' || hasText(converted.text)) parts.push(converted);
  }
  return parts;
}

const joinText = (parts: ChatContentPart[]): string =>
  parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n');

type Item<T extends ResponsesInputItem['type']> = Extract<ResponsesInputItem, { type: T }>;

/** A call of a function or of a freeform tool, as the chat tool call it stands for. */
function chatCall(item: Item<'function_call'> | Item<'custom_tool_call'>): ChatToolCall {
  const name = flatName(item.namespace, item.name);
  const args = item.type === 'function_call' ? item.arguments : customCallArguments(item.input);
  return { id: item.call_id, type: 'function', function: { name, arguments: args } };
}

/**
 * The chat messages of an input, built item by item: an assistant turn gathers its text and the calls after
 * it; images in tool outputs wait to follow as one user message.
 */
class ChatMessages {
  readonly messages: ChatMessage[] = [];
  #assistant: { texts: string[]; calls: ChatToolCall[] } | null = null;
  #images: ChatContentPart[] = [];

  /** Calls join the assistant turn before them (its text, parallel calls); after outputs they start a new one. */
  call(call: ChatToolCall): void {
    if (!this.#assistant) this.flushImages();
    this.#assistant ??= { texts: [], calls: [] };
    this.#assistant.calls.push(call);
  }

  assistantText(parts: ChatContentPart[]): void {
    if (parts.length === 0) return;
    if (this.#assistant && this.#assistant.calls.length > 0) this.flushAssistant();
    this.flushImages();
    this.#assistant ??= { texts: [], calls: [] };
    this.#assistant.texts.push(joinText(parts));
  }

  toolOutput(callId: string, parts: ChatContentPart[]): void {
    this.flushAssistant();
    this.#images.push(...parts.filter((part) => part.type === 'image_url'));
    const text = joinText(parts.filter((part) => part.type === 'text'));
    this.messages.push({
      role: 'tool',
      tool_call_id: callId,
      content: text === '' ? EMPTY_TOOL_RESULT : text,
    });
  }

  /**
   * A user, system or developer message; one with nothing to say is not sent. System text goes to the front
   * of the conversation (`hoistSystem`), so it ends no assistant turn.
   */
  message(role: Exclude<Item<'message'>['role'], 'assistant'>, parts: ChatContentPart[]): void {
    if (parts.length === 0) return;
    if (role !== 'user') {
      this.messages.push({ role: 'system', content: joinText(parts) });
      return;
    }
    this.flushAssistant();
    this.flushImages();
    const textOnly = parts.every((part) => part.type === 'text');
    this.messages.push({ role: 'user', content: textOnly ? joinText(parts) : parts });
  }

  flushAssistant(): void {
    const assistant = this.#assistant;
    if (!assistant) return;
    const text = assistant.texts.join('\n\n');
    if (assistant.calls.length > 0)
      this.messages.push({
        role: 'assistant',
        content: text === '' ? null : text,
        tool_calls: assistant.calls,
      });
    else if (text !== '') this.messages.push({ role: 'assistant', content: text });
    this.#assistant = null;
  }

  flushImages(): void {
    if (this.#images.length > 0) this.messages.push({ role: 'user', content: this.#images });
    this.#images = [];
  }
}

/** Converts `input` (a string is one user message); images in tool outputs follow as a user message. */
export function convertInput(input: string | readonly ResponsesInputItem[]): Converted {
  if (typeof input === 'string')
    return { ok: true, messages: hasText(input) ? [{ role: 'user', content: input }] : [] };
  const out = new ChatMessages();
  for (const [i, item] of input.entries()) {
    const at = `input[${i}]`;
    switch (item.type) {
      case 'function_call':
      case 'custom_tool_call':
        out.call(chatCall(item));
        break;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const parts = chatParts(item.output, `${at}.output`);
        if ('ok' in parts) return parts;
        out.toolOutput(item.call_id, parts);
        break;
      }
      case 'message': {
        const parts = chatParts(item.content, `${at}.content`);
        if ('ok' in parts) return parts;
        if (item.role === 'assistant') out.assistantText(parts);
        else out.message(item.role, parts);
        break;
      }
      default:
        // Reasoning, compactions and web searches: nothing of them goes upstream, and the turn goes on.
        break;
    }
  }
  out.flushAssistant();
  out.flushImages();
  return { ok: true, messages: out.messages };
}
