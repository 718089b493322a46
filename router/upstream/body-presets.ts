/**
 * A chat body reshaped for a provider or model that refuses what others take (which ones: see
 * `catalogue/body-presets.ts`). Mistral, Codestral and Z.ai reject parameters other providers accept, and
 * tool results without a matching assistant tool call; Mistral's models, wherever they are served, reject
 * tool call ids and an order of messages that agents send (`mistral-conversation.ts`); Google's Gemini API
 * rejects tool calls without their thought signature (`gemini-conversation.ts`).
 */
import type { BodyPreset } from '../catalogue/body-presets.js';
import { isRecord } from '../gate/safe-json.js';
import { geminiConversation } from './gemini-conversation.js';
import { mistralConversation } from './mistral-conversation.js';
import type { ThoughtSignatures } from './thought-signatures.js';

export type { BodyPreset };

const STRICT_DROPPED = ['parallel_tool_calls', 'n', 'top_k', 'logprobs', 'echo', 'user', 'metadata', 'store'];

/**
 * Returns a reshaped copy of a chat body for `preset` (the input is not changed); `signatures`: the thought
 * signatures Google's preset puts back on the calls they came with.
 */
export function applyBodyPreset(
  body: Record<string, unknown>,
  preset: BodyPreset,
  signatures: ThoughtSignatures | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  if (preset === 'strict' || preset === 'mistral') {
    for (const key of STRICT_DROPPED) delete out[key];
    if (typeof out.temperature === 'number' && out.temperature > 1) out.temperature = 1;
  }
  if (Array.isArray(out.messages)) out.messages = conversationFor(preset, out.messages, signatures);
  return out;
}

function conversationFor(
  preset: BodyPreset,
  messages: readonly unknown[],
  signatures: ThoughtSignatures | null,
): unknown[] {
  switch (preset) {
    case 'gemini':
      return geminiConversation(messages, signatures, true);
    case 'gemini-before-3':
      return geminiConversation(messages, signatures, false);
    case 'strict':
      return dropOrphanToolResults(messages);
    case 'mistral':
    case 'mistral-model':
      return mistralConversation(dropOrphanToolResults(messages));
  }
}

/** Drops `role: tool` messages whose `tool_call_id` no earlier assistant message announced. */
export function dropOrphanToolResults(messages: readonly unknown[]): unknown[] {
  const announced = new Set<string>();
  const kept: unknown[] = [];
  for (const message of messages) {
    if (isRecord(message) && message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls)
        if (isRecord(call) && typeof call.id === 'string') announced.add(call.id);
    }
    if (isRecord(message) && message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || !announced.has(message.tool_call_id)) continue;
    }
    kept.push(message);
  }
  return kept;
}
