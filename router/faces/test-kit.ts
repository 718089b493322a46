/**
 * Test helpers for the faces: upstream chat-completions frames as SSE text, a driver that feeds an encoder
 * the way the engine does, an SSE parser for what came out, and the recorded agent fixtures.
 */
import { readFileSync } from 'node:fs';
import type { AnswerEncoder } from './answer-encoder.js';

export const DONE = 'data: [DONE]\n\n';

/** One chat-completions chunk frame with a delta for choice 0. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return frame({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    model: 'up',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
}

/** A usage-only chunk, as upstreams send with `stream_options.include_usage`. */
export function usageChunk(prompt: number, completion: number, extra: Record<string, unknown> = {}): string {
  return frame({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, ...extra },
  });
}

export function frame(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** A tool call piece for a delta's `tool_calls`. */
export function toolPiece(
  index: number,
  id: string | null,
  name: string | null,
  args: string,
): Record<string, unknown> {
  const fn: Record<string, unknown> = { arguments: args };
  if (name !== null) fn.name = name;
  return id === null ? { index, function: fn } : { index, id, type: 'function', function: fn };
}

/** A whole chat completion body. */
export function completion(
  message: Record<string, unknown>,
  finish = 'stop',
  usage?: Record<string, unknown>,
): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'up',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  });
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const text = (out: Uint8Array | string | null): string =>
  out === null ? '' : typeof out === 'string' ? out : decoder.decode(out);

/** Feeds each piece to `streamLines`, then closes: everything the client got. */
export function runStream(encoderUnderTest: AnswerEncoder, pieces: readonly string[], close = true): string {
  let out = '';
  for (const piece of pieces) out += text(encoderUnderTest.streamLines(encoder.encode(piece)));
  if (close) out += encoderUnderTest.streamClose() ?? '';
  return out;
}

export interface SseEvent {
  event: string | null;
  data: Record<string, unknown>;
}

/** Parses `event:` / `data:` SSE text (one JSON data line per event). */
export function parseSse(sse: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of sse.split('\n\n')) {
    if (block.trim() === '') continue;
    let name: string | null = null;
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) name = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    events.push({ event: name, data: JSON.parse(data) as Record<string, unknown> });
  }
  return events;
}

/** The event names (or data `type`s) in order. */
export const names = (events: readonly SseEvent[]): string[] =>
  events.map((e) => e.event ?? String(e.data.type));

/** A recorded agent request from `fixtures/`. */
export function fixture(name: string): {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  const file = new URL(`./fixtures/${name}`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as {
    url: string;
    headers: Record<string, string>;
    body: Record<string, unknown>;
  };
}
