/**
 * Tool and system messages whose content is an array of text parts, as one string. The OpenAI protocol
 * allows either form there (text parts only), but many upstreams take only the string: some refuse the
 * array with a 400, and chat templates that render text alone drop it without a word, so the model never
 * sees the tool's output. Qwen Code sends every tool result as parts. The Messages and Responses faces
 * build their tool and system messages as strings already.
 */
import { isRecord } from '../gate/safe-json.js';

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

function flattened(message: unknown): string | null {
  return isRecord(message) && typeof message.role === 'string' && FLATTENED_ROLES.has(message.role)
    ? textOfParts(message.content)
    : null;
}

/**
 * A chat body whose tool and system messages hold their text as a string: the body itself when they all do,
 * else a copy with just those messages rewritten.
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
