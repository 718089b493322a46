/**
 * Responses `input` items → chat-completions messages. `developer` and `system` messages become system
 * messages; an assistant message and the `function_call` items after it become one assistant message with
 * `tool_calls` (chat wants parallel calls together); a `function_call_output` becomes a `tool` message with
 * the same `call_id`; earlier reasoning is dropped. Item references are expanded before
 * (`responses-references.ts`).
 */
import type { ChatContentPart, ChatMessage, ChatToolCall } from './chat-request.js';
import { refuse, type FieldError } from './face-validation.js';
import type { ResponsesInputItem, ResponsesPart } from './responses-schema.js';
import { flatName } from './responses-tools.js';

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

function chatParts(content: string | ResponsesPart[], at: string): ChatContentPart[] | FieldError {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: ChatContentPart[] = [];
  for (const [i, part] of content.entries()) {
    const converted = chatPart(part, `${at}[${i}]`);
    if ('ok' in converted) return converted;
    parts.push(converted);
  }
  return parts;
}

const joinText = (parts: ChatContentPart[]): string =>
  parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n');

/** Converts `input` (a string is one user message); images in tool outputs follow as a user message. */
export function convertInput(input: string | readonly ResponsesInputItem[]): Converted {
  if (typeof input === 'string') return { ok: true, messages: [{ role: 'user', content: input }] };
  const out: ChatMessage[] = [];
  let assistant: { texts: string[]; calls: ChatToolCall[] } | null = null;
  let images: ChatContentPart[] = [];
  const flush = (): void => {
    if (assistant) {
      const text = assistant.texts.join('\n\n');
      if (assistant.calls.length > 0)
        out.push({ role: 'assistant', content: text === '' ? null : text, tool_calls: assistant.calls });
      else if (text !== '') out.push({ role: 'assistant', content: text });
      assistant = null;
    }
  };
  const flushImages = (): void => {
    if (images.length > 0) out.push({ role: 'user', content: images });
    images = [];
  };
  for (const [i, item] of input.entries()) {
    const at = `input[${i}]`;
    if (item.type === 'function_call') {
      // Calls join the assistant turn before them (its text, parallel calls); after outputs they start a new one.
      if (!assistant) flushImages();
      assistant ??= { texts: [], calls: [] };
      const name = flatName(item.namespace, item.name);
      assistant.calls.push({
        id: item.call_id,
        type: 'function',
        function: { name, arguments: item.arguments },
      });
      continue;
    }
    if (item.type === 'message' && item.role === 'assistant') {
      const parts = chatParts(item.content, `${at}.content`);
      if ('ok' in parts) return parts;
      if (assistant && assistant.calls.length > 0) flush();
      flushImages();
      assistant ??= { texts: [], calls: [] };
      assistant.texts.push(joinText(parts));
      continue;
    }
    flush();
    if (item.type === 'function_call_output') {
      const parts = chatParts(item.output, `${at}.output`);
      if ('ok' in parts) return parts;
      images.push(...parts.filter((part) => part.type === 'image_url'));
      const text = joinText(parts.filter((part) => part.type === 'text'));
      out.push({ role: 'tool', tool_call_id: item.call_id, content: text === '' ? '(no output)' : text });
      continue;
    }
    flushImages();
    if (item.type !== 'message') continue;
    const parts = chatParts(item.content, `${at}.content`);
    if ('ok' in parts) return parts;
    if (item.role === 'user') {
      const textOnly = parts.every((part) => part.type === 'text');
      out.push({ role: 'user', content: textOnly ? joinText(parts) : parts });
    } else out.push({ role: 'system', content: joinText(parts) });
  }
  flush();
  flushImages();
  return { ok: true, messages: out };
}
