/**
 * The objects of a Responses answer, shared by the JSON answer and the stream: output items, usage, status
 * and the response object itself.
 */
import type { ChatUsage } from './chat-deltas.js';
import type { ToolNames } from './responses-tools.js';
import { customCallInput } from './responses-custom-tools.js';
import { normalArguments } from '../gate/answer-rules.js';

/** An output item's status. */
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** What every response object of one request shares. */
export interface ResponseMeta {
  id: string;
  /** Unix seconds. */
  createdAt: number;
  model: string;
}

export function reasoningItem(id: string, text: string): Record<string, unknown> {
  return { id, type: 'reasoning', summary: text === '' ? [] : [{ type: 'summary_text', text }] };
}

export function outputTextPart(text: string): Record<string, unknown> {
  return { type: 'output_text', text, annotations: [] };
}

export function messageItem(id: string, text: string | null, status: ItemStatus): Record<string, unknown> {
  return {
    id,
    type: 'message',
    status,
    role: 'assistant',
    content: text === null ? [] : [outputTextPart(text)],
  };
}

/** A tool call as the chat answer gave it: its item's id, its call id, its chat-side name and arguments. */
export interface ToolCallParts {
  id: string;
  callId: string;
  chatName: string;
  args: string;
}

/** The item a tool call is: a `custom_tool_call` for a freeform tool's chat function, else a `function_call`. */
export type CallKind = 'function_call' | 'custom_tool_call';

/** The kinds of output item an answer holds. */
export type ItemKind = 'reasoning' | 'message' | CallKind;

/** Each kind's item id prefix, as OpenAI's (`fc_…`). */
export const ITEM_PREFIX: Record<ItemKind, string> = {
  reasoning: 'rs',
  message: 'msg',
  function_call: 'fc',
  custom_tool_call: 'ctc',
};

/** Which item a call of chat function `chatName` is. */
export function callKind(chatName: string, names: ToolNames): CallKind {
  return names.get(chatName)?.custom ? 'custom_tool_call' : 'function_call';
}

/** The name a tool call's item carries: a flattened namespace function's own name. */
export function agentName(chatName: string, names: ToolNames): string {
  return names.get(chatName)?.name ?? chatName;
}

/**
 * A tool call's item: a `function_call` with the arguments (once the call is over, empty ones as `{}`, as
 * every face gives them), or for a freeform tool a `custom_tool_call` with its raw `input`; a namespaced
 * tool's item gets its `namespace` and own name back.
 */
export function toolCallItem(
  call: ToolCallParts,
  status: ItemStatus,
  names: ToolNames,
): Record<string, unknown> {
  const { id, callId, chatName, args } = call;
  const known = names.get(chatName);
  const naming = known?.namespace
    ? { name: known.name, namespace: known.namespace }
    : { name: known?.name ?? chatName };
  if (known?.custom)
    return { id, type: 'custom_tool_call', status, call_id: callId, input: customCallInput(args), ...naming };
  // A call under way has the arguments streamed so far, which its deltas add to.
  const fnArgs = status === 'in_progress' ? args : normalArguments(args);
  return { id, type: 'function_call', status, arguments: fnArgs, call_id: callId, ...naming };
}

/** Chat usage as Responses usage (every count present: clients read them as numbers). */
export function responsesUsage(usage: ChatUsage | null): Record<string, unknown> | null {
  if (!usage) return null;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}

/** How the answer ended: a length or content-filter stop leaves it `incomplete`, with the reason. */
export function responseStatus(finish: string | null): {
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: string } | null;
} {
  if (finish === 'length')
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** A response object. */
export function responseObject(
  meta: ResponseMeta,
  status: string,
  rest: {
    output?: Record<string, unknown>[];
    usage?: Record<string, unknown> | null;
    incomplete_details?: { reason: string } | null;
    error?: { code: string; message: string } | null;
  } = {},
): Record<string, unknown> {
  const output = rest.output ?? [];
  let outputText = '';
  for (const item of output) {
    if (item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content as { text?: unknown }[])
      if (typeof part.text === 'string') outputText += part.text;
  }
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    error: rest.error ?? null,
    incomplete_details: rest.incomplete_details ?? null,
    model: meta.model,
    output,
    output_text: outputText,
    usage: rest.usage ?? null,
    metadata: {},
  };
}
