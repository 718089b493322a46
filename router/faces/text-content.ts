/**
 * Message content on chat completions as every upstream takes it. Tool and system messages whose content is
 * an array of text parts go as one string: the OpenAI protocol allows either form there (text parts only),
 * but many upstreams take only the string: some refuse the array with a 400, and chat templates that render
 * text alone drop it without a word, so the model never sees the tool's output. Qwen Code sends every tool
 * result as parts. A message with nothing to say (no text but whitespace, the gate's `hasText` rule) is not
 * sent: Anthropic's API refuses one, and so do some chat upstreams (Google's an empty text part, Mistral an
 * assistant message without content), and agents keep an empty answer in the history they send back. A
 * tool result with nothing in it says so (`EMPTY_TOOL_RESULT`). The Messages and Responses faces build
 * their messages so already.
 */
import { hasText } from '../gate/answer-rules.js';
import { isRecord } from '../gate/safe-json.js';

/**
 * What a tool message with no output says: some upstreams refuse an empty message (GLM's and MiniMax's
 * APIs), and a command that printed nothing is common.
 */
export const EMPTY_TOOL_RESULT = '(no output)';

/** Content with no word in it: none, blank text, or only parts of blank text. */
function blankContent(content: unknown): boolean {
  if (content === null || content === undefined) return true;
  if (typeof content === 'string') return !hasText(content);
  return (
    Array.isArray(content) &&
    content.every(
      (part) =>
        isRecord(part) && part.type === 'text' && typeof part.text === 'string' && !hasText(part.text),
    )
  );
}

const FLATTENED_ROLES = new Set(['tool', 'system']);

/**
 * The text of `content` when it is a non-empty array of plain text parts only, else null (a part that
 * carries more, such as a `cache_control` mark, keeps the array as the agent wrote it).
 */
function textOfParts(content: unknown): string | null {
  if (!Array.isArray(content) || content.length === 0) return null;
  const texts: string[] = [];
  for (const part of content) {
    if (!isRecord(part) || part.type !== 'text' || typeof part.text !== 'string') return null;
    if (Object.keys(part).length !== 2) return null;
    texts.push(part.text);
  }
  return texts.join('\n');
}

/** The string a tool or system message's content goes as, when not as it came: null for as it came. */
function flattened(message: unknown): string | null {
  if (!isRecord(message) || typeof message.role !== 'string' || !FLATTENED_ROLES.has(message.role))
    return null;
  if (message.role === 'tool' && blankContent(message.content)) return EMPTY_TOOL_RESULT;
  return textOfParts(message.content);
}

/**
 * A chat body whose tool and system messages hold their text as a string, and whose tool messages say
 * something (`EMPTY_TOOL_RESULT` when blank): the body itself when they all do, else a copy with just those
 * messages rewritten.
 *
 * @example withTextContent({ messages: [{ role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'ok' }] }] })
 *   // { messages: [{ role: 'tool', tool_call_id: 'c', content: 'ok' }] }
 */
export function withTextContent(body: Record<string, unknown>): Record<string, unknown> {
  const messages = body.messages;
  if (!Array.isArray(messages) || !messages.some((message) => flattened(message) !== null)) return body;
  const rewritten = messages.map((message: unknown) => {
    const text = flattened(message);
    return text === null || !isRecord(message) ? message : { ...message, content: text };
  });
  return { ...body, messages: rewritten };
}

const SPEAKING_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

/** A user, assistant or system message with no words, tool call or audio: it says nothing. */
function saysNothing(message: unknown): boolean {
  if (!isRecord(message) || typeof message.role !== 'string' || !SPEAKING_ROLES.has(message.role))
    return false;
  const calls = message.tool_calls;
  if (Array.isArray(calls) && calls.length > 0) return false;
  if (message.function_call != null || message.audio != null) return false;
  return blankContent(message.content);
}

/**
 * A chat body without the messages that say nothing (an empty answer an agent kept in its history, a blank
 * user turn), which Google's API refuses ("contents.parts must not be empty") and Mistral's as an assistant
 * message without content: the body itself when it has none, or when nothing else is left but system text
 * (then the upstream decides, as it would have). Tool messages always stay: each answers a call.
 */
export function withoutBlankMessages(body: Record<string, unknown>): Record<string, unknown> {
  const messages = body.messages;
  if (!Array.isArray(messages) || !messages.some(saysNothing)) return body;
  const kept = messages.filter((message) => !saysNothing(message));
  const speaks = kept.some(
    (message) => isRecord(message) && message.role !== 'system' && message.role !== 'developer',
  );
  return speaks ? { ...body, messages: kept } : body;
}
