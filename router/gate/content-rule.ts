/**
 * The one content rule shared by the response gate, the stream tracker, health probes and the self-test:
 * what makes a message or a streamed delta worth committing to. Thinking models stream reasoning before any
 * text, so reasoning counts; role-only and whitespace-only frames do not.
 */
import { isRecord } from './safe-json.js';

function hasText(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** Text content: a string, or content parts of which at least one carries non-whitespace `text`. */
function hasTextContent(content: unknown): boolean {
  if (typeof content === 'string') return hasText(content);
  if (!Array.isArray(content)) return false;
  return content.some((part) => hasText(part) || (isRecord(part) && hasText(part.text)));
}

/**
 * True when a `choices[i].message` or `choices[i].delta` carries something an agent can use: non-whitespace
 * text content, a non-empty `tool_calls` array, a `function_call` object, a non-whitespace `refusal`, or
 * non-whitespace `reasoning_content` / `reasoning`.
 *
 * @example hasUsefulContent({ role: 'assistant', content: '' }) // false
 * @example hasUsefulContent({ reasoning_content: 'Let me think' }) // true
 */
export function hasUsefulContent(messageOrDelta: unknown): boolean {
  if (!isRecord(messageOrDelta)) return false;
  const m = messageOrDelta;
  return (
    hasTextContent(m.content) ||
    (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) ||
    isRecord(m.function_call) ||
    hasText(m.refusal) ||
    hasText(m.reasoning_content) ||
    hasText(m.reasoning)
  );
}

/** True when a `choices[i]` entry has useful content in its `delta` (streams) or `message` (bodies). */
export function choiceHasUsefulContent(choice: unknown): boolean {
  if (!isRecord(choice)) return false;
  return hasUsefulContent(choice.delta) || hasUsefulContent(choice.message);
}

/** True when a stream's frame (a parsed chunk; `[DONE]` never) has a choice with useful content. */
export function frameHasUsefulContent(frame: Record<string, unknown> | '[DONE]'): boolean {
  if (frame === '[DONE]') return false;
  const choices = frame.choices;
  return Array.isArray(choices) && choices.some(choiceHasUsefulContent);
}
