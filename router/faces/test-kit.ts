/**
 * Test helpers for the faces: upstream chat-completions frames as SSE text, drivers that feed an encoder
 * through the gate the way the engine does, an SSE parser for what came out, and the recorded agent fixtures.
 */
import { readFileSync } from 'node:fs';
import { encodePart, type AnswerEncoder } from './answer-encoder.js';
import { checkResponseBody, type GatedCompletion } from '../gate/response-gate.js';
import { endsWithDone, lineEndsAfter, type StreamPart } from '../gate/stream-part.js';
import { StreamTracker } from '../gate/stream-tracker.js';
import { httpRequest, type HttpReply } from '../test-support/http-client.js';

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

/** A whole completion body through the response gate, as the engine hands it to an encoder. */
export function gated(body: string): GatedCompletion {
  const verdict = checkResponseBody(body, 'application/json', 'off');
  if (!verdict.ok) throw new Error(`the gate refused the completion: ${verdict.detail}`);
  return { text: verdict.rewritten ?? body, body: verdict.body };
}

/**
 * Feeds each piece through the gate's stream tracker (in the encoder's reading) and what passes into the
 * encoder, as the engine does, then closes: everything the client got. Throws at an upstream error frame.
 */
export function runStream(
  encoderUnderTest: AnswerEncoder,
  pieces: readonly (string | Uint8Array)[],
  close = true,
): string {
  const tracker = new StreamTracker({ holdLimitBytes: 1 << 20, reading: encoderUnderTest.reads });
  let out = '';
  let committed = false;
  const write = (result: { forward: StreamPart | null; failure: unknown }): void => {
    if (result.failure) throw new Error('the stream failed at the gate');
    if (result.forward) out += text(encodePart(encoderUnderTest, result.forward));
  };
  for (const piece of pieces) {
    const bytes = typeof piece === 'string' ? encoder.encode(piece) : piece;
    if (committed) write(tracker.pass(bytes));
    else if (['content', 'overflow'].includes(tracker.hold(bytes).type)) {
      committed = true;
      write(tracker.commit());
    }
  }
  if (!close) return out;
  const end = tracker.end();
  write({ forward: end.forward, failure: end.failure ?? end.midStreamFailure });
  // As the answer tells it: whether the client already has the upstream's `[DONE]`.
  const sent = Buffer.from(out);
  const tail = { done: endsWithDone(sent) === true, lineEnds: lineEndsAfter(sent, 2) };
  return out + (encoderUnderTest.streamClose(tail) ?? '');
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

/** Each agent's recorded turn that carries its tool calls and their results, in `fixtures/`. */
export const TOOL_RESULT_TURNS = [
  'claude-code-2.1.332.tool-result-turn.json',
  'codex-0.171.0.tool-output-turn.json',
  'codex-0.171.0.namespace-tool-output-turn.json',
  'codex-0.171.0.apply-patch-output-turn.json',
  'opencode-1.18.33.tool-result-turn.json',
  'qwen-code-0.24.4.tool-result-turn.json',
  'continue-cli-1.5.47.tool-result-turn.json',
];

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

/** POSTs the recorded agent request `name` (its path and body) to the router at `routerUrl`. */
export function replayFixture(routerUrl: string, name: string): Promise<HttpReply> {
  const recorded = fixture(name);
  return httpRequest(`${routerUrl}${recorded.url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(recorded.body),
  });
}
