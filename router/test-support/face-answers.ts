/**
 * The three faces side by side for tests that ask each the same thing: where to send a request, its body,
 * and what a client made of the streamed answer (its text, reasoning and tool calls, and how it ended).
 */
import type { Face } from '../faces/answer-encoder.js';
import { httpRequest, sseData, type HttpReply } from './http-client.js';

/** What a client reads from a streamed answer. */
export interface ReadAnswer {
  text: string;
  reasoning: string;
  tools: { name: string; args: string }[];
  /** `clean`: the protocol's normal ending; `error`: its error ending; `none`: neither. */
  ending: 'clean' | 'error' | 'none';
  /** Events (or frames) after the ending, which a client would never read. */
  afterEnding: number;
}

type Event = Record<string, unknown>;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const rec = (value: unknown): Event =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Event) : {};

/** A chat-completions stream as the OpenAI SDK reads it. */
function readChat(frames: unknown[]): ReadAnswer {
  const read: ReadAnswer = { text: '', reasoning: '', tools: [], ending: 'none', afterEnding: 0 };
  for (const frame of frames) {
    if (read.ending !== 'none') read.afterEnding += 1;
    if (frame === '[DONE]') {
      if (read.ending === 'none') read.ending = 'clean';
      continue;
    }
    if (rec(frame).error !== undefined) {
      if (read.ending === 'none') read.ending = 'error';
      continue;
    }
    const choices = rec(frame).choices;
    const delta = rec(Array.isArray(choices) ? rec(choices[0]).delta : undefined);
    read.text += str(delta.content);
    read.reasoning += str(delta.reasoning_content);
    for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const fn = rec(rec(call).function);
      const index = Number(rec(call).index ?? 0);
      read.tools[index] ??= { name: '', args: '' };
      (read.tools[index] as { name: string }).name += str(fn.name);
      (read.tools[index] as { args: string }).args += str(fn.arguments);
    }
  }
  return read;
}

/** An Anthropic Messages stream: text and thinking deltas, tool_use blocks, `message_stop` or `error`. */
function readMessages(events: unknown[]): ReadAnswer {
  const read: ReadAnswer = { text: '', reasoning: '', tools: [], ending: 'none', afterEnding: 0 };
  for (const value of events) {
    const event = rec(value);
    if (read.ending !== 'none') read.afterEnding += 1;
    if (event.type === 'message_stop' && read.ending === 'none') read.ending = 'clean';
    if (event.type === 'error' && read.ending === 'none') read.ending = 'error';
    const block = rec(event.content_block);
    if (event.type === 'content_block_start' && block.type === 'tool_use')
      read.tools.push({ name: str(block.name), args: '' });
    const delta = rec(event.delta);
    read.text += str(delta.text);
    read.reasoning += str(delta.thinking);
    const tool = read.tools.at(-1);
    if (delta.type === 'input_json_delta' && tool) tool.args += str(delta.partial_json);
  }
  return read;
}

/** A Responses stream: output_text and reasoning deltas, function calls, `response.completed` or `.failed`. */
function readResponses(events: unknown[]): ReadAnswer {
  const read: ReadAnswer = { text: '', reasoning: '', tools: [], ending: 'none', afterEnding: 0 };
  for (const value of events) {
    const event = rec(value);
    if (read.ending !== 'none') read.afterEnding += 1;
    if (event.type === 'response.completed' && read.ending === 'none') read.ending = 'clean';
    if (event.type === 'response.failed' && read.ending === 'none') read.ending = 'error';
    if (event.type === 'response.output_text.delta') read.text += str(event.delta);
    if (event.type === 'response.reasoning_summary_text.delta') read.reasoning += str(event.delta);
    const item = rec(event.item);
    if (event.type === 'response.output_item.done' && item.type === 'function_call')
      read.tools.push({ name: str(item.name), args: str(item.arguments) });
  }
  return read;
}

/** One face as a test drives it. */
export interface FaceDriver {
  face: Face;
  path: string;
  /** The body of a request saying `prompt`, with the tools named (each takes `schema`: any object). */
  body(stream: boolean, prompt: string, tools?: readonly string[], schema?: object): Record<string, unknown>;
  read(text: string): ReadAnswer;
}

const anyObject = { type: 'object', properties: {} };

export const FACES: readonly FaceDriver[] = [
  {
    face: 'chat',
    path: '/v1/chat/completions',
    body: (stream, prompt, tools = [], schema = anyObject) => ({
      model: 'fcm',
      stream,
      messages: [{ role: 'user', content: prompt }],
      ...(tools.length === 0
        ? {}
        : { tools: tools.map((name) => ({ type: 'function', function: { name, parameters: schema } })) }),
    }),
    read: (text) => readChat(sseData(text)),
  },
  {
    face: 'messages',
    path: '/v1/messages',
    body: (stream, prompt, tools = [], schema = anyObject) => ({
      model: 'fcm',
      max_tokens: 1024,
      stream,
      // As Claude Code asks: thinking on, so the answer shows the model's reasoning.
      thinking: { type: 'adaptive' },
      messages: [{ role: 'user', content: prompt }],
      ...(tools.length === 0 ? {} : { tools: tools.map((name) => ({ name, input_schema: schema })) }),
    }),
    read: (text) => readMessages(sseData(text)),
  },
  {
    face: 'responses',
    path: '/v1/responses',
    body: (stream, prompt, tools = [], schema = anyObject) => ({
      model: 'fcm',
      stream,
      // As Codex asks: a summary of the reasoning, so the answer shows it.
      reasoning: { summary: 'auto' },
      input: prompt,
      ...(tools.length === 0
        ? {}
        : { tools: tools.map((name) => ({ type: 'function', name, parameters: schema })) }),
    }),
    read: (text) => readResponses(sseData(text)),
  },
];

/** Sends `body` to the face at `url` (the router's). */
export function askFace(url: string, driver: FaceDriver, body: Record<string, unknown>): Promise<HttpReply> {
  return httpRequest(`${url}${driver.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer any', 'x-api-key': 'any' },
    body: JSON.stringify(body),
  });
}
