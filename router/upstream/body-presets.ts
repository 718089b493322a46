/**
 * Per-provider request normalisation. Mistral, Codestral and Z.ai reject parameters other providers accept,
 * and tool results without a matching assistant tool call.
 */
export type BodyPreset = 'mistral';

const MISTRAL_DROPPED = [
  'parallel_tool_calls',
  'n',
  'top_k',
  'logprobs',
  'echo',
  'user',
  'metadata',
  'store',
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Returns a normalised copy of a chat body for a provider preset (the input is not changed). */
export function applyBodyPreset(body: Record<string, unknown>, _preset: BodyPreset): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const key of MISTRAL_DROPPED) delete out[key];
  if (typeof out.temperature === 'number' && out.temperature > 1) out.temperature = 1;
  if (Array.isArray(out.messages)) out.messages = dropOrphanToolResults(out.messages);
  return out;
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
