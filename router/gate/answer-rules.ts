/**
 * The rules an answer's content is held to, shared by the response gate, the stream tracker, health probes
 * and the self-test: what makes a message or a streamed delta worth committing to, and when a tool call is
 * one an agent can run. Pure.
 *
 * Useful content: thinking models stream reasoning before any text, so reasoning counts; role-only and
 * whitespace-only frames do not.
 *
 * A runnable tool call names a tool the request offered, and its arguments are a JSON object (or nothing,
 * for a tool without parameters). Free models also send calls to tools nobody offered and arguments cut
 * off or laced with their own markup (`{"path": "a", <|tool_call_end|>`); an agent fails on those, so the
 * router treats them as a content failure.
 */
import { offeredToolNames, type OfferedTools } from './offered-tools.js';
import { isRecord, parseJson } from './safe-json.js';
import { textPastThinkBlock } from './think-tags.js';

/** A string with something in it besides whitespace. */
export function hasText(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** Text content: a string, or content parts of which at least one carries non-whitespace `text`. */
function hasTextContent(content: unknown): boolean {
  if (typeof content === 'string') return hasText(content);
  if (!Array.isArray(content)) return false;
  return content.some((part) => hasText(part) || (isRecord(part) && hasText(part.text)));
}

/** Text of a `content` that is a string or an array of text parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (typeof part === 'string') text += part;
    else if (isRecord(part) && typeof part.text === 'string') text += part.text;
  }
  return text;
}

/**
 * True when a `choices[i].message` or `choices[i].delta` carries something an agent can use: non-whitespace
 * text content, a non-empty `tool_calls` array, a `function_call` object, a non-whitespace `refusal`, or
 * non-whitespace `reasoning_content` / `reasoning`.
 *
 * @example hasUsefulContent({ role: 'assistant', content: '' }) // false
 * @example hasUsefulContent({ reasoning_content: 'Let me think' }) // true
 */
export function hasUsefulContent(messageOrDelta: unknown): boolean {
  if (!isRecord(messageOrDelta)) return false;
  const m = messageOrDelta;
  return hasWordsOrCalls(m) || hasText(m.reasoning_content) || hasText(m.reasoning);
}

/** What an agent acts on: text, a tool or function call, a refusal (reasoning alone is not an answer). */
function hasWordsOrCalls(m: Record<string, unknown>): boolean {
  return hasTextContent(m.content) || hasCallsOrRefusal(m);
}

function hasCallsOrRefusal(m: Record<string, unknown>): boolean {
  return (
    (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) ||
    isRecord(m.function_call) ||
    hasText(m.refusal)
  );
}

/**
 * True when a body's `choices[i]` ended with reasoning alone: no text (past a think block that opens it),
 * tool call or refusal, and not cut at its output limit (`finish_reason: "length"`, the agent's own
 * `max_tokens`). A thinking model that stops there has given the agent nothing to act on.
 */
export function endsWithThoughtsAlone(choice: unknown): boolean {
  if (!isRecord(choice) || cutAtOutputLimit(choice) || !isRecord(choice.message)) return false;
  const { content } = choice.message;
  const said = typeof content === 'string' ? textPastThinkBlock(content) : content;
  return !hasTextContent(said) && !hasCallsOrRefusal(choice.message);
}

/** True when a `choices[i]` entry was cut at the request's output limit (`finish_reason: "length"`). */
export function cutAtOutputLimit(choice: unknown): boolean {
  return isRecord(choice) && choice.finish_reason === 'length';
}

/** True when a `choices[i]` entry has useful content in its `delta` (streams) or `message` (bodies). */
export function choiceHasUsefulContent(choice: unknown): boolean {
  if (!isRecord(choice)) return false;
  return hasUsefulContent(choice.delta) || hasUsefulContent(choice.message);
}

/** True when a stream's frame (a parsed chunk; `[DONE]` never) has a choice with useful content. */
export function frameHasUsefulContent(frame: Record<string, unknown> | '[DONE]'): boolean {
  if (frame === '[DONE]') return false;
  const choices = frame.choices;
  return Array.isArray(choices) && choices.some(choiceHasUsefulContent);
}

// Tool calls an agent can run.

/** Longest arguments a call may have (a whole file written through a tool fits many times over). */
export const MAX_TOOL_ARGUMENTS_CHARS = 4 * 1024 * 1024;

/**
 * The tool names an answer's tool calls are checked against: the offered ones with `contentValidation:
 * strict` (a request for several choices is passed through as it comes), else null (not checked).
 */
export function checkedToolNames(
  body: Readonly<Record<string, unknown>>,
  contentValidation: string,
): OfferedTools | null {
  const oneChoice = !(typeof body.n === 'number' && body.n > 1);
  return contentValidation === 'strict' && oneChoice ? offeredToolNames(body) : null;
}

/**
 * The tools of which the answer must call one, when the request forces a tool call: all the checked ones
 * for `tool_choice: "required"` (the Messages face's `any`, the Responses face's `required`), the one named
 * by `tool_choice: {type: "function", function: {name}}` (or a legacy `function_call: {name}`) when it is
 * among them; else null (`auto`, `none`, no choice, or tool calls not checked: `checked` null).
 *
 * @example forcedToolNames({ tool_choice: 'required' }, new Set(['Read'])) // Set { 'Read' }
 * @example forcedToolNames({ tool_choice: 'auto' }, new Set(['Read'])) // null
 */
export function forcedToolNames(
  body: Readonly<Record<string, unknown>>,
  checked: ReadonlySet<string> | null,
): ReadonlySet<string> | null {
  if (checked === null || checked.size === 0) return null;
  const choice = body.tool_choice;
  if (choice === 'required') return checked;
  const named =
    isRecord(choice) && choice.type === 'function' && isRecord(choice.function)
      ? choice.function.name
      : isRecord(body.function_call)
        ? body.function_call.name
        : null;
  // A name the request does not offer forces nothing an answer could do.
  return typeof named === 'string' && checked.has(named) ? new Set([named]) : null;
}

/** Why an answer fails a forced tool call, in words that name no tool. */
export const FORCED_CALL_MISSING =
  'the request forces a tool call and the answer made none the choice allows';

/** True when a whole message calls one of the `forced` tools (by `tool_calls`, or a legacy `function_call`). */
export function callsForcedTool(message: unknown, forced: ReadonlySet<string>): boolean {
  if (!isRecord(message)) return false;
  const fns = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((call: unknown) => (isRecord(call) ? call.function : undefined))
    : [message.function_call];
  return fns.some((fn) => isRecord(fn) && typeof fn.name === 'string' && forced.has(fn.name));
}

/** Which calls a choice carries: tool calls, a legacy function call, or none (null). */
export type CallsKind = 'tool_calls' | 'function_call' | null;

/**
 * The finish reason the agent must get instead of `finish` for a choice carrying `calls`, or null when it
 * stands. `tool_calls` with no call is the end of a text answer (`stop`): an agent would wait for calls that
 * never come. `stop` with calls is a turn of calls (Gemini's and LiteLLM's OpenAI-compatible endpoints say
 * `stop` there), which some agents would end without running them.
 */
export function fixedFinishReason(finish: unknown, calls: CallsKind): string | null {
  if (finish === 'tool_calls' && calls === null) return 'stop';
  if (finish === 'stop' && calls !== null) return calls;
  return null;
}

/**
 * A call's `arguments` as the JSON text OpenAI defines them as: a string as it came, none (missing, null) as
 * empty, any other value as its JSON (llama.cpp's server and TGI send an object). So an object is the same
 * arguments, and a value that is no object stays one and is judged (`toolCallProblem`), never read as empty.
 * Only such a value is serialised: a string piece costs a type check.
 */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** Arguments as the agent gets them: empty ones become `{}`. */
export function normalArguments(args: string): string {
  return args.trim() === '' ? '{}' : args;
}

/**
 * What is wrong with one whole tool call, in words that carry neither its name nor its arguments (they may
 * hold the user's data), or null when the agent can run it.
 *
 * @example toolCallProblem('Bash', '{"command":"ls"}', new Set(['Bash'])) // null
 * @example toolCallProblem('Bash', '{"command": "ls", <|end|>', new Set(['Bash'])) // 'arguments are not JSON'
 */
export function toolCallProblem(
  name: string | null,
  args: string,
  offered: ReadonlySet<string>,
): string | null {
  if (name === null || name === '') return 'a tool call without a name';
  if (!offered.has(name)) return 'a call to a tool the request did not offer';
  if (args.length > MAX_TOOL_ARGUMENTS_CHARS) return 'tool call arguments too long';
  const parsed = parseJson(normalArguments(args));
  if (!parsed.ok) return 'tool call arguments are not JSON';
  return isRecord(parsed.value) ? null : 'tool call arguments are not a JSON object';
}

/** The first problem among a whole message's tool calls (`tool_calls`, or a legacy `function_call`), or null. */
export function messageToolProblem(message: unknown, offered: ReadonlySet<string>): string | null {
  if (!isRecord(message)) return null;
  const calls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((call: unknown) => (isRecord(call) ? call.function : undefined))
    : isRecord(message.function_call)
      ? [message.function_call]
      : [];
  for (const fn of calls) {
    const name = isRecord(fn) && typeof fn.name === 'string' ? fn.name : null;
    const args = isRecord(fn) ? argumentsText(fn.arguments) : '';
    const problem = toolCallProblem(name, args, offered);
    if (problem !== null) return problem;
  }
  return null;
}
