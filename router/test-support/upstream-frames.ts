/** Chat completion bodies and SSE chunks as OpenAI-compatible providers send them, for fake upstreams. */
/** A chat completion chunk whose delta carries `content`. */
export function contentFrame(content: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'fake',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  };
}

/** A role-only first chunk: not useful content. */
export function roleFrame(): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }],
  };
}

/** The usage-only chunk `stream_options.include_usage` adds after the last choice. */
export function usageFrame(prompt: number, completion: number): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** An upstream error frame inside a 200 stream. */
export function errorFrame(message = 'upstream exploded'): Record<string, unknown> {
  return { error: { message, type: 'server_error', code: 'internal' } };
}

/** A complete non-streamed chat completion. */
export function completion(content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model: 'fake',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    ...extra,
  };
}

/**
 * A complete non-streamed chat completion whose answer is one call of `name` with `args` (JSON text), with
 * `id` as the call's id (none when left out, as some providers send it).
 */
export function toolCallCompletion(name: string, args: string, id?: string): Record<string, unknown> {
  const call = { ...(id === undefined ? {} : { id }), type: 'function', function: { name, arguments: args } };
  return completion('', {
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, tool_calls: [call] },
        finish_reason: 'tool_calls',
      },
    ],
  });
}

/** A chunk whose delta carries only `reasoning_content`, as thinking models stream before (or instead of) text. */
export function reasoningFrame(text: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { reasoning_content: text }, finish_reason: null }],
  };
}

/** The closing chunk of a choice: an empty delta with its `finish_reason`. */
export function finishFrame(reason: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: reason }],
  };
}

/** A chunk carrying one piece of tool call `index` (its id and name only in its first piece). */
export function toolCallFrame(
  index: number,
  args: string,
  first?: { id: string; name: string },
): Record<string, unknown> {
  const fn = first ? { name: first.name, arguments: args } : { arguments: args };
  const call = first ? { index, id: first.id, type: 'function', function: fn } : { index, function: fn };
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }],
  };
}
