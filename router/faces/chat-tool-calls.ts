/**
 * Tool calls in a whole chat-completions answer, made as a stream gives them: each with an id (minted when
 * the upstream gave none, since an agent cannot answer a call without one), empty or missing arguments as
 * `{}`, and arguments sent as a JSON value rather than its text (llama.cpp's server, TGI) as that text, the
 * string OpenAI defines. Other faces mint their own ids as they write their answer.
 */
import { argumentsText, normalArguments } from '../gate/answer-rules.js';
import { callIdMinter } from '../gate/minted-ids.js';
import { isRecord } from '../gate/safe-json.js';

/** Arguments that are not the text of a call's arguments yet: missing, blank, or a JSON value. */
function unwritten(fn: Record<string, unknown>): boolean {
  const args = fn.arguments;
  return typeof args !== 'string' || args.trim() === '';
}

/** Repairs one choice's tool calls in place; true when anything changed. */
function repairCalls(calls: readonly unknown[], mint: () => string): boolean {
  let changed = false;
  for (const call of calls) {
    if (!isRecord(call)) continue;
    if (typeof call.id !== 'string' || call.id === '') {
      call.id = mint();
      changed = true;
    }
    if (isRecord(call.function) && unwritten(call.function)) {
      call.function.arguments = normalArguments(argumentsText(call.function.arguments));
      changed = true;
    }
  }
  return changed;
}

/**
 * Gives every tool call of `body`'s choices an id and JSON arguments, in place (one fresh id stem per answer).
 * Returns whether anything changed: the usual answer is left as its bytes came.
 */
export function repairWholeToolCalls(body: Record<string, unknown>): boolean {
  if (!Array.isArray(body.choices)) return false;
  const mint = callIdMinter();
  let changed = false;
  for (const choice of body.choices) {
    const message = isRecord(choice) && isRecord(choice.message) ? choice.message : null;
    if (message !== null && Array.isArray(message.tool_calls))
      changed = repairCalls(message.tool_calls, mint) || changed;
    // A legacy call's arguments as a JSON value become their text too (missing ones stay missing).
    const legacy = message?.function_call;
    if (isRecord(legacy) && legacy.arguments != null && typeof legacy.arguments !== 'string') {
      legacy.arguments = argumentsText(legacy.arguments);
      changed = true;
    }
  }
  return changed;
}
