/**
 * The response gate: judges a non-streaming 2xx body (or the completion a stream read whole was folded into)
 * before the router commits to it. Pure; the caller sends the original bytes untouched unless the gate hands
 * back a `rewritten` body.
 */
import type { ContentValidation } from '../config/schema.js';
import {
  callsForcedTool,
  choiceHasUsefulContent,
  cutAtOutputLimit,
  endsWithThoughtsAlone,
  fixedFinishReason,
  FORCED_CALL_MISSING,
  messageToolProblem,
  type CallsKind,
} from './answer-rules.js';
import { htmlStart } from './html-start.js';
import type { ContentFailureKind } from './failure-kinds.js';
import { isRecord, parseJson } from './safe-json.js';
import { promoteTextCalls } from './text-call-promotion.js';
import type { OfferedTools } from './offered-tools.js';

export type TokenUsage = { promptTokens: number | null; completionTokens: number | null };

export type GateFailure = {
  ok: false;
  kind: ContentFailureKind;
  detail: string;
  errorCode: number | string | null;
};

export type GateVerdict =
  | {
      ok: true;
      rewritten: string | null;
      usage: TokenUsage | null;
      /** The body as the gate parsed it (with any fix `rewritten` carries): encoders read this, not the text. */
      body: Record<string, unknown>;
      /** Tool calls were read from the answer's text (`promoteTextCalls`). */
      callsFromText: boolean;
    }
  | GateFailure;

/**
 * A whole answer that passed the gate, as the face's encoder takes it: the text to relay as it is (the
 * upstream's bytes, or the gate's rewrite) and the object the gate parsed it into.
 */
export interface GatedCompletion {
  text: Buffer | string;
  body: Record<string, unknown>;
}

/** What a completion is held to besides the mode. */
export interface GateAsks {
  /** The names of the tools the request offers: strict mode checks the answer's tool calls against them. */
  tools?: OfferedTools | null;
  /** The request forces a tool call: strict mode fails an answer that calls none of these (`forcedToolNames`). */
  forced?: ReadonlySet<string> | null;
  /**
   * Strict mode takes an empty answer cut at the request's output limit as answered: a health probe's, whose
   * few tokens a thinking model may spend on reasoning it does not show (the model did answer).
   */
  cutAnswers?: boolean;
}

const DETAIL_MAX_CHARS = 200;

/** True when text starts, after a BOM and whitespace, like an HTML page. */
export function looksLikeHtml(text: string): boolean {
  // Fast path for the usual JSON body: no copy unless the first visible character could open a tag.
  const first = text.search(/[^\uFEFF\s]/);
  if (first === -1 || text.charCodeAt(first) !== 0x3c) return false;
  const start = text
    .replace(/^[\uFEFF\s]+/, '')
    .slice(0, 16)
    .toLowerCase();
  return htmlStart(start) === 'html';
}

function isHtmlContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const semi = contentType.indexOf(';');
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim();
  return type.length === 9 && type.toLowerCase() === 'text/html';
}

function shortDetail(text: string): string {
  // Control characters (anything outside printable ASCII and U+00A0 onwards) would break log lines.
  return text.replace(/[^ -~\u00a0-\uffff]+/g, ' ').slice(0, DETAIL_MAX_CHARS);
}

function codeOf(value: unknown): number | string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '') return value;
  return null;
}

/**
 * Reads an upstream `error` value (an OpenAI-style object or a bare string): a short detail and a code.
 * A numeric `code` or `status` is preferred, since the classifier reads a 4xx code as that HTTP status.
 */
export function describeUpstreamError(error: unknown): { errorCode: number | string | null; detail: string } {
  if (typeof error === 'string') return { errorCode: null, detail: shortDetail(error) };
  if (!isRecord(error)) return { errorCode: null, detail: '' };
  const code = codeOf(error.code);
  const status = codeOf(error.status);
  const errorCode = typeof code === 'number' ? code : typeof status === 'number' ? status : (code ?? status);
  const message = typeof error.message === 'string' && error.message.trim() !== '' ? error.message : null;
  const type = typeof error.type === 'string' ? error.type : null;
  // No words of its own: '' (the detail may be quoted to the client as the upstream's words).
  return { errorCode, detail: shortDetail(message ?? type ?? '') };
}

/** Token counts from a response's or frame's `usage` (or Groq's `x_groq.usage`); null without any number. */
export function readUsage(payload: Record<string, unknown>): TokenUsage | null {
  const usage = isRecord(payload.usage)
    ? payload.usage
    : isRecord(payload.x_groq)
      ? payload.x_groq.usage
      : null;
  if (!isRecord(usage)) return null;
  const promptTokens = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : null;
  const completionTokens = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : null;
  return promptTokens === null && completionTokens === null ? null : { promptTokens, completionTokens };
}

function fail(
  kind: ContentFailureKind,
  detail: string,
  errorCode: number | string | null = null,
): GateFailure {
  return { ok: false, kind, detail, errorCode };
}

/** The calls a whole answer's message carries. */
function callsOf(message: unknown): CallsKind {
  if (!isRecord(message)) return null;
  if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) return 'tool_calls';
  return isRecord(message.function_call) ? 'function_call' : null;
}

/**
 * Finish reasons that contradict the choice's calls (`fixedFinishReason`), fixed in place: `tool_calls`
 * without a call becomes `stop`, `stop` with calls `tool_calls`. Returns whether anything changed.
 */
function fixFinishReasons(choices: unknown[]): boolean {
  let changed = false;
  for (const choice of choices) {
    if (!isRecord(choice)) continue;
    const fixed = fixedFinishReason(choice.finish_reason, callsOf(choice.message));
    if (fixed === null) continue;
    choice.finish_reason = fixed;
    changed = true;
  }
  return changed;
}

/**
 * Judges a non-streaming 2xx body. Checks run in order: HTML (by content-type or the body's start),
 * a JSON object (even in mode `off`), then the completion's rules (`checkCompletion`).
 *
 * @param asks what the request holds the answer to besides the mode (its tools).
 * @returns a failure with its kind, or a pass with `rewritten` set only when the body had to be fixed.
 */
export function checkResponseBody(
  bodyText: string,
  contentType: string | null,
  mode: ContentValidation,
  asks: GateAsks = {},
): GateVerdict {
  if (isHtmlContentType(contentType) || looksLikeHtml(bodyText)) {
    return fail('html_maintenance', 'upstream answered with an HTML page');
  }
  const parsed = parseJson(bodyText.charCodeAt(0) === 0xfeff ? bodyText.slice(1) : bodyText);
  if (!parsed.ok) return fail('invalid_json', shortDetail(`body is not JSON: ${parsed.error}`));
  const body = parsed.value;
  if (!isRecord(body)) return fail('invalid_json', 'body is not a JSON object');
  return checkCompletion(body, mode, asks);
}

/**
 * Strict mode's "no content": a first choice with nothing useful in it, unless the request takes one cut at
 * its output limit as answered (`GateAsks.cutAnswers`).
 */
function saysNothing(first: unknown, asks: GateAsks): boolean {
  if (choiceHasUsefulContent(first)) return false;
  return asks.cutAnswers !== true || !cutAtOutputLimit(first);
}

/**
 * The tool calls of an answer's first choice, with `offered` checked: calls written into its text are read
 * back into calls first, in place (`promoteTextCalls`), then every call is checked (`messageToolProblem`).
 */
function checkCalls(
  first: Record<string, unknown>,
  offered: OfferedTools,
): { problem: string | null; promoted: boolean } {
  const promoted = promoteTextCalls(first, offered);
  if (typeof promoted === 'string') return { problem: promoted, promoted: false };
  return { problem: messageToolProblem(first.message, offered), promoted };
}

/**
 * Judges a parsed chat completion (a JSON body's, or a stream's folded into one) per `mode`: `off` passes
 * it; `basic` rejects a non-null `error` and missing or empty `choices`; `strict` also requires the first
 * choice to carry useful content, more than reasoning alone (a think block opening its text is reasoning
 * too) unless cut at its output limit, and, when `asks.tools` is given, tool calls an agent can run
 * (`invalid_tool_call`; calls written into the text are read back into calls first), and when `asks.forced`
 * is, a call to one of those tools (`tool_choice_ignored`). A finish reason that contradicts its choice's
 * calls is fixed in place, in any mode.
 *
 * @param asks what the request holds the answer to besides the mode: its tools, the call it forces, and
 * whether an empty answer cut at its output limit is answered (`cutAnswers`).
 * @returns a failure with its kind, or a pass with `rewritten` (the fixed body's JSON) set only when a finish
 * reason was fixed or calls were read from the text.
 */
export function checkCompletion(
  body: Record<string, unknown>,
  mode: ContentValidation,
  asks: GateAsks = {},
): GateVerdict {
  const { tools } = asks;
  let promoted = false;
  if (mode !== 'off') {
    if (body.error != null) {
      const { errorCode, detail } = describeUpstreamError(body.error);
      return fail('error_payload', detail, errorCode);
    }
    if (!Array.isArray(body.choices) || body.choices.length === 0) {
      return fail('empty_choices', Array.isArray(body.choices) ? 'choices is empty' : 'choices is missing');
    }
    const first: unknown = body.choices[0];
    if (mode === 'strict' && saysNothing(first, asks)) {
      return fail('empty_content', 'first choice has no text, tool call, refusal or reasoning');
    }
    if (mode === 'strict' && endsWithThoughtsAlone(first)) {
      return fail('empty_content', 'first choice ended with reasoning alone: no text, tool call or refusal');
    }
    const calls = mode === 'strict' && tools && isRecord(first) ? checkCalls(first, tools) : null;
    if (calls?.problem) return fail('invalid_tool_call', calls.problem);
    promoted = calls?.promoted === true;
    if (mode === 'strict' && asks.forced && !(isRecord(first) && callsForcedTool(first.message, asks.forced)))
      return fail('tool_choice_ignored', FORCED_CALL_MISSING);
  }

  const fixed = Array.isArray(body.choices) && fixFinishReasons(body.choices);
  const rewritten = fixed || promoted ? JSON.stringify(body) : null;
  return { ok: true, rewritten, usage: readUsage(body), body, callsFromText: promoted };
}
