import { isRecord, parseJson } from '../gate/safe-json.js';

function deltaOf(message: Record<string, unknown>): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  for (const field of ['role', 'content', 'reasoning_content', 'reasoning', 'refusal', 'function_call']) {
    if (message[field] !== undefined && message[field] !== null) delta[field] = message[field];
  }
  if (Array.isArray(message.tool_calls)) {
    delta.tool_calls = message.tool_calls.map((call: unknown, index) =>
      isRecord(call) ? { index, ...call } : call,
    );
  }
  return delta;
}

/**
 * Some providers ignore `stream: true` and answer one JSON completion. A streaming client would read that
 * as an empty turn, so the (already validated) completion is replayed as the SSE events it stands for:
 * one chunk per choice, a usage chunk, `[DONE]`; a completion without `created` is dated `nowMs` (the
 * router's clock). Null when the body is not a completion object.
 */
export function completionAsSse(body: string, nowMs: number): string | null {
  const parsed = parseJson(body);
  if (!parsed.ok || !isRecord(parsed.value) || !Array.isArray(parsed.value.choices)) return null;
  const completion = parsed.value;
  const base = {
    id: completion.id ?? 'chatcmpl-fcm',
    object: 'chat.completion.chunk',
    created: completion.created ?? Math.floor(nowMs / 1000),
    model: completion.model ?? null,
  };
  const choices = (completion.choices as unknown[]).filter(isRecord).map((choice, index) => ({
    index: typeof choice.index === 'number' ? choice.index : index,
    delta: isRecord(choice.message) ? deltaOf(choice.message) : {},
    finish_reason: choice.finish_reason ?? 'stop',
  }));
  let out = `data: ${JSON.stringify({ ...base, choices })}\n\n`;
  if (isRecord(completion.usage))
    out += `data: ${JSON.stringify({ ...base, choices: [], usage: completion.usage })}\n\n`;
  return `${out}data: [DONE]\n\n`;
}
