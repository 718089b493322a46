/**
 * What a face needs from the upstream's chat-completions answer, read the same way for a stream's chunks and
 * a whole completion: reasoning, text, tool calls, the finish reason and token usage. Only the first choice
 * counts: a face asks for one.
 */
import { argumentsText, contentText } from '../gate/answer-rules.js';
import { isRecord } from '../gate/safe-json.js';

/** Token counts; null where the upstream did not say. */
export interface ChatUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  reasoningTokens: number | null;
}

/** Receives one stream's content in order. */
export interface DeltaSink {
  reasoning(text: string): void;
  text(text: string): void;
  /** A piece of tool call `index`: its id and name come with its first piece (either may be null). */
  toolCall(index: number, id: string | null, name: string | null, args: string): void;
  /** The finish reason, and the stop string that ended the answer where the upstream names it (else null). */
  finish(reason: string, matchedStop: string | null): void;
  usage(usage: ChatUsage): void;
}

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Token counts from a completion's or chunk's `usage` (or Groq's `x_groq.usage`), or null. */
export function readChatUsage(payload: Record<string, unknown>): ChatUsage | null {
  const usage = isRecord(payload.usage)
    ? payload.usage
    : isRecord(payload.x_groq) && isRecord(payload.x_groq.usage)
      ? payload.x_groq.usage
      : null;
  if (!usage) return null;
  const prompt = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const read: ChatUsage = {
    inputTokens: num(usage.prompt_tokens),
    outputTokens: num(usage.completion_tokens),
    cachedTokens: num(prompt.cached_tokens),
    reasoningTokens: num(completion.reasoning_tokens),
  };
  return read.inputTokens === null && read.outputTokens === null ? null : read;
}

/** The reasoning text of a message or delta (`reasoning_content`, or `reasoning` as some providers name it). */
export function reasoningText(message: Record<string, unknown>): string {
  return str(message.reasoning_content) ?? str(message.reasoning) ?? '';
}

/** The choice with index 0 (or none), else the list's first; read without a callback, once per chunk. */
function firstChoice(payload: Record<string, unknown>): Record<string, unknown> | null {
  const choices = payload.choices;
  if (!Array.isArray(choices)) return null;
  for (let i = 0; i < choices.length; i += 1) {
    const choice: unknown = choices[i];
    if (isRecord(choice) && (choice.index === 0 || choice.index === undefined)) return choice;
  }
  const first: unknown = choices[0];
  return isRecord(first) ? first : null;
}

/** Hands one chunk's content of the first choice, and its usage, to `sink`. */
export function readChunk(chunk: Record<string, unknown>, sink: DeltaSink): void {
  const choice = firstChoice(chunk);
  readChoice(chunk, choice, choice?.delta, sink);
}

/**
 * Hands a message's (or delta's) content to `sink` in the order the agent shows it: reasoning, text and
 * refusal, then tool calls (a legacy `function_call` is tool call 0).
 */
export function readMessage(message: Record<string, unknown>, sink: DeltaSink): void {
  const reasoning = reasoningText(message);
  if (reasoning !== '') sink.reasoning(reasoning);
  const text = contentText(message.content);
  if (text !== '') sink.text(text);
  const refusal = str(message.refusal);
  if (refusal) sink.text(refusal);
  const calls = message.tool_calls;
  if (Array.isArray(calls)) {
    for (let position = 0; position < calls.length; position += 1) {
      const call: unknown = calls[position];
      if (!isRecord(call)) continue;
      const fn = isRecord(call.function) ? call.function : {};
      const index = num(call.index) ?? position;
      sink.toolCall(index, str(call.id) || null, str(fn.name) || null, argumentsText(fn.arguments));
    }
  } else if (isRecord(message.function_call)) {
    const fn = message.function_call;
    sink.toolCall(0, null, str(fn.name) || null, argumentsText(fn.arguments));
  }
}

/** A whole completion read into one sink: the first choice's message, finish reason and usage. */
export function readCompletion(completion: Record<string, unknown>, sink: DeltaSink): void {
  const choice = firstChoice(completion);
  readChoice(completion, choice, choice?.message, sink);
}

/**
 * The stop string that ended a choice: vLLM names it in `stop_reason`, SGLang in `matched_stop` (both give a
 * number for a stop token, which is no stop string).
 */
function matchedStop(choice: Record<string, unknown>): string | null {
  return str(choice.stop_reason) ?? str(choice.matched_stop);
}

/** A choice's `content` (a chunk's `delta`, a completion's `message`), its finish reason, then the usage. */
function readChoice(
  value: Record<string, unknown>,
  choice: Record<string, unknown> | null,
  content: unknown,
  sink: DeltaSink,
): void {
  if (isRecord(content)) readMessage(content, sink);
  const finish = choice ? str(choice.finish_reason) : null;
  if (choice && finish) sink.finish(finish, matchedStop(choice));
  const usage = readChatUsage(value);
  if (usage) sink.usage(usage);
}
