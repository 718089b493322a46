/**
 * A chunk whose delta says something (its role, reasoning, text) and whose tool calls, or ending, let calls
 * go, written as the two chunks it stands for: what the delta says, then (after the calls) its finish reason
 * and usage. Agents read a chunk's words before its calls, and Anthropic's and OpenAI's protocols order a
 * message's blocks and items so; the calls that leave with the chunk must follow its words. Pure.
 */

/** The words half: the chunk with what its delta says, without its finish reason and usage. */
export function wordsHalf(
  value: Record<string, unknown>,
  choice: Record<string, unknown>,
  delta: Record<string, unknown>,
): Record<string, unknown> {
  const { usage: _usage, ...head } = value;
  return { ...head, choices: [{ ...choice, delta, finish_reason: null }] };
}

/**
 * The ending half: the chunk with an empty delta, its finish reason (`finish`: as written anew, when it
 * was) and usage; the words' log probabilities stay with the words.
 */
export function endingHalf(
  value: Record<string, unknown>,
  choice: Record<string, unknown>,
  finish: { finish_reason?: string },
): Record<string, unknown> {
  const { logprobs: _logprobs, ...rest } = choice;
  return { ...value, choices: [{ ...rest, delta: {}, ...finish }] };
}
