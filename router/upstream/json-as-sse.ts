import { isRecord } from '../gate/safe-json.js';
import type { UpstreamFrame } from '../gate/stream-part.js';

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
 * Some providers ignore `stream: true` and answer one JSON completion. A streaming client would read that as
 * an empty turn, so the (already gated) completion is replayed as the stream it stands for: one chunk for its
 * choices, a usage chunk, `[DONE]`, made from the object the gate parsed. A completion without `created` is
 * dated `nowMs` (the router's clock). Null when the body has no `choices` (the gate's mode `off` lets such a
 * body through).
 */
export function completionFrames(completion: Record<string, unknown>, nowMs: number): UpstreamFrame[] | null {
  if (!Array.isArray(completion.choices)) return null;
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
  const frames: UpstreamFrame[] = [{ ...base, choices }];
  if (isRecord(completion.usage)) frames.push({ ...base, choices: [], usage: completion.usage });
  frames.push('[DONE]');
  return frames;
}
