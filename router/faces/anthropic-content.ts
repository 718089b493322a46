/**
 * Anthropic message content → chat-completions messages. A user turn's `tool_result` blocks become `tool`
 * messages (first, since chat wants them right after the assistant's tool calls), its text and images one
 * user message; an assistant turn's `tool_use` blocks become `tool_calls`; thinking is dropped. What a tool
 * result holds that no chat upstream reads (a PDF, a file of Anthropic's Files API) is named in its text,
 * not pasted: the agent made the result, and refusing it would refuse every later turn of the conversation.
 */
import type { ChatContentPart, ChatMessage, ChatToolCall } from './chat-request.js';
import { hasText } from '../gate/answer-rules.js';
import { EMPTY_TOOL_RESULT } from './text-content.js';
import type { AnthropicBlock, AnthropicMessage } from './anthropic-schema.js';
import { droppedLength } from './unsent-text.js';
import { documentBlock, imageSource } from './anthropic-schema.js';
import { refuse, type FieldError } from './face-validation.js';

/** Marks a tool result the agent flagged as failed, in words the model reads. */
export const TOOL_ERROR_PREFIX = '[tool error] ';

/** Longest unknown tool result part pasted as JSON; a longer one is named instead. */
export const MAX_PASTED_PART = 2048;

type Converted = { ok: true; messages: ChatMessage[] } | FieldError;
type AnthropicDocument = Extract<AnthropicBlock, { type: 'document' }>;

/** What stands in a tool result for a part left out of it. */
const leftOut = (what: string, why: string): string => `[${what} was left out: ${why}]`;
const TEXT_ONLY = 'this model takes text only';

function imagePart(
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string },
): ChatContentPart {
  const url = source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.url;
  return { type: 'image_url', image_url: { url } };
}

/** Text parts only become one string: several upstreams take no content arrays. */
function userContent(parts: ChatContentPart[]): string | ChatContentPart[] {
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => part.text).join('\n\n');
  return parts;
}

/**
 * The note for a document or image (`what`) whose source is of no kind read here: a file uploaded to
 * Anthropic's Files API (only Anthropic can fetch it), or a malformed one.
 */
function unreadSource(what: 'a document' | 'an image', part: Record<string, unknown>): string {
  const source = part.source;
  const file = typeof source === 'object' && source !== null && 'type' in source && source.type === 'file';
  return file
    ? leftOut(`${what} uploaded to Anthropic's Files API`, 'only Anthropic can fetch it')
    : leftOut(what, 'its source could not be read');
}

/** A document in a tool result: its text (text and content documents), else a note that it was left out. */
function toolResultDocument(part: Record<string, unknown>): string {
  const parsed = documentBlock.safeParse(part);
  if (!parsed.success) return unreadSource('a document', part);
  const text = documentPlainText(parsed.data);
  if (text !== null) return text;
  // What is left is base64 or url: a PDF, as Anthropic takes them.
  const { source } = parsed.data;
  const media = source.type === 'base64' ? source.media_type : 'application/pdf';
  return leftOut(media === 'application/pdf' ? 'a PDF document' : `a ${media} document`, TEXT_ONLY);
}

/** A part of a tool result as text; its images go to `images`, loaded tools' names to `referenced`. */
function toolResultPiece(
  part: Record<string, unknown> & { type: string },
  images: ChatContentPart[],
  referenced: Set<string>,
): string {
  if (part.type === 'text' && typeof part.text === 'string') return part.text;
  if (part.type === 'tool_reference' && typeof part.tool_name === 'string') {
    referenced.add(part.tool_name);
    return `Tool loaded: ${part.tool_name}`;
  }
  if (part.type === 'image') {
    const source = imageSource.safeParse(part.source);
    if (!source.success) return unreadSource('an image', part);
    images.push(imagePart(source.data));
    return `(image ${images.length} follows in the next user message)`;
  }
  if (part.type === 'document') return toolResultDocument(part);
  // A part of a kind not known here is pasted for the model to read, unless it is too long to be worth it.
  const json = JSON.stringify(part);
  return json.length <= MAX_PASTED_PART ? json : leftOut(`a ${part.type} part`, 'it is too long to show');
}

/**
 * A tool result as the text of a `tool` message; its images go to `images` (a tool message holds text
 * only) and the names of `tool_reference` parts to `referenced` (deferred tools the agent just loaded).
 */
function toolResultText(
  block: Extract<AnthropicBlock, { type: 'tool_result' }>,
  images: ChatContentPart[],
  referenced: Set<string>,
): string {
  const pieces: string[] = [];
  if (typeof block.content === 'string') pieces.push(block.content);
  for (const part of Array.isArray(block.content) ? block.content : [])
    pieces.push(toolResultPiece(part, images, referenced));
  const text = pieces.join('\n');
  const body = text === '' ? EMPTY_TOOL_RESULT : text;
  return block.is_error === true ? `${TOOL_ERROR_PREFIX}${body}` : body;
}

/** A text or content document's text, after its title; null for a PDF (base64 or url), which it cannot read. */
function documentPlainText(block: AnthropicDocument): string | null {
  const { source } = block;
  let text: string;
  if (source.type === 'text') text = source.data;
  else if (source.type === 'content') {
    text =
      typeof source.content === 'string'
        ? source.content
        : source.content.map((part) => part.text).join('\n');
  } else return null;
  return block.title ? `${block.title}\n\n${text}` : text;
}

/** A user turn's document as text, or a 400 naming it. */
function documentText(block: AnthropicDocument, at: string): string | FieldError {
  const text = documentPlainText(block);
  if (text !== null) return text;
  const message = `is a ${block.source.type} document; chat-completions upstreams take text documents only`;
  return refuse(`${at}.source`, message);
}

function userTurn(blocks: AnthropicBlock[], at: string, referenced: Set<string>): Converted {
  const tools: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  const images: ChatContentPart[] = [];
  for (const [i, block] of blocks.entries()) {
    if (block.type === 'text') {
      if (hasText(block.text)) parts.push({ type: 'text', text: block.text });
    } else if (block.type === 'image') parts.push(imagePart(block.source));
    else if (block.type === 'document') {
      const text = documentText(block, `${at}[${i}]`);
      if (typeof text !== 'string') return text;
      parts.push({ type: 'text', text });
    } else if (block.type === 'tool_result') {
      tools.push({
        role: 'tool',
        tool_call_id: block.tool_use_id,
        content: toolResultText(block, images, referenced),
      });
    } else if (block.type === 'tool_use')
      return refuse(`${at}[${i}]`, 'is a tool_use block in a user message');
  }
  parts.push(...images);
  const messages = [...tools];
  if (parts.length > 0) messages.push({ role: 'user', content: userContent(parts) });
  return { ok: true, messages };
}

/** The blocks of an assistant turn that go to no upstream: its reasoning, signed for Anthropic alone. */
const THINKING_BLOCKS: ReadonlySet<string> = new Set(['thinking', 'redacted_thinking']);

/** The text of the thinking blocks in `messages`' assistant turns, which `convertMessages` leaves out. */
export function thinkingLength(messages: readonly AnthropicMessage[]): number {
  let sum = 0;
  for (const { role, content } of messages)
    if (role === 'assistant' && Array.isArray(content)) sum += droppedLength(content, THINKING_BLOCKS);
  return sum;
}

function assistantTurn(blocks: AnthropicBlock[], at: string): Converted {
  const texts: string[] = [];
  const calls: ChatToolCall[] = [];
  for (const [i, block] of blocks.entries()) {
    if (block.type === 'text') {
      if (hasText(block.text)) texts.push(block.text);
    } else if (block.type === 'tool_use') {
      const args = JSON.stringify(block.input ?? {});
      calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: args } });
    } else if (!THINKING_BLOCKS.has(block.type)) {
      return refuse(`${at}[${i}]`, `is a ${block.type} block in an assistant message`);
    }
  }
  const text = texts.join('\n\n');
  // A turn of nothing but thinking leaves nothing to send (chat refuses an empty assistant message).
  if (text === '' && calls.length === 0) return { ok: true, messages: [] };
  const message: ChatMessage =
    calls.length > 0
      ? { role: 'assistant', content: text === '' ? null : text, tool_calls: calls }
      : { role: 'assistant', content: text };
  return { ok: true, messages: [message] };
}

/** A system text from a string or text blocks (`cache_control` and the like are dropped). */
export function systemText(content: string | { text: string }[]): string {
  return typeof content === 'string' ? content : content.map((block) => block.text).join('\n\n');
}

/**
 * Converts `messages` in order; `referenced` collects the tools named by `tool_reference` parts.
 * A `role: "system"` entry (Claude Code sends one) becomes a system message (gathered first by the caller);
 * a user or assistant message with nothing to say (blank text, thinking alone) becomes none.
 */
export function convertMessages(messages: AnthropicMessage[], referenced: Set<string>): Converted {
  const out: ChatMessage[] = [];
  for (const [i, message] of messages.entries()) {
    const at = `messages[${i}].content`;
    const { content } = message;
    if (message.role === 'system') {
      const blocks = typeof content === 'string' ? content : content.filter((block) => block.type === 'text');
      if (typeof blocks !== 'string' && blocks.length !== content.length)
        return refuse(at, 'of a system message must be text');
      out.push({ role: 'system', content: systemText(blocks) });
      continue;
    }
    if (typeof content === 'string') {
      if (!hasText(content)) continue;
      out.push(message.role === 'user' ? { role: 'user', content } : { role: 'assistant', content });
      continue;
    }
    const converted =
      message.role === 'user' ? userTurn(content, at, referenced) : assistantTurn(content, at);
    if (!converted.ok) return converted;
    out.push(...converted.messages);
  }
  return { ok: true, messages: out };
}
