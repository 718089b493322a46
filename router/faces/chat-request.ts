/**
 * The chat-completions request a face builds from its agent's request: only the fields a face can fill, typed
 * as plain object types so a body is assignable to the engine's `Record<string, unknown>`.
 */
import { hasText } from '../gate/answer-rules.js';

export type ChatContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: string } };

export type ChatToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export type ChatTool = {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
};

export type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export type ChatResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean } };

export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: ChatResponseFormat;
};

/**
 * A reasoning effort an agent asked for; the engine forwards it as `reasoning_effort` only to models that
 * take it (`modelFit.<id>.reasoningEffort` in the config).
 */
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/** What a face's request translation gives the engine, or a 400 naming the field at fault. */
export type FaceRequest<Extra = object> =
  | ({
      ok: true;
      /** The one chat-completions body to send upstream (`model` is the agent's, for the engine to resolve). */
      chat: ChatRequest;
      stream: boolean;
      /** The model name the agent asked for. */
      model: string;
      /** The effort the agent asked for, or null. */
      effort: ReasoningEffort | null;
      /** Characters of the agent's body that no upstream is sent: earlier turns' reasoning (`unsent-text.ts`). */
      unsentChars: number;
    } & Extra)
  | { ok: false; message: string; param: string | null };

/**
 * Gathers every system message into one, first, in order. Many open models' chat templates take a single
 * system message at the start only (others refuse the request), and some upstreams want the last message
 * to be the user's or a tool's. Both agents send their instructions in several pieces, and Claude Code puts
 * its environment text in a system entry after the prompt. A blank one says nothing and is left out.
 */
export function hoistSystem(messages: readonly ChatMessage[]): ChatMessage[] {
  const system: string[] = [];
  const rest: ChatMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      if (hasText(message.content)) system.push(message.content);
    } else rest.push(message);
  }
  return system.length > 0 ? [{ role: 'system', content: system.join('\n\n') }, ...rest] : rest;
}

/** The streaming fields of a chat body: usage is asked for, since both agents read token counts. */
export function streamFields(stream: boolean): Pick<ChatRequest, 'stream' | 'stream_options'> {
  return stream ? { stream: true, stream_options: { include_usage: true } } : { stream: false };
}

/** Copies the listed optional fields that are present (not undefined or null) from `from` onto `to`. */
export function copyDefined<T extends object, K extends keyof T>(
  to: Partial<T>,
  from: T,
  keys: readonly K[],
): void {
  for (const key of keys) {
    const value = from[key];
    if (value !== undefined && value !== null) to[key] = value;
  }
}
