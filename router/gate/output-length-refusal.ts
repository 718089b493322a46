/**
 * Whether a 400 may be about the output length asked for (`max_tokens`), read from its words. Such a
 * refusal is worth one more try without it; one that names another cause (a parameter, a tool, a message's
 * shape) and no tokens is not, and the try would spend an attempt of the cap for nothing. Pure.
 */

/** Words an output-length refusal uses: `max_tokens`, `max_completion_tokens`, `8192 tokens`, `output length`. */
const OUTPUT_WORDS = /tokens?\b|tokens?_|output[ _-]?length|max[ _-]?len/i;

/** Words that name a cause of the request's own shape other than its output length. */
const OTHER_CAUSE =
  /\b(tools?|tool_choice|tool[ _]?calls?|functions?|messages?|roles?|content|schema|response_format|temperature|top_[pk]|stream_options|parallel_tool_calls|reasoning(_effort)?|cache_control|parameters?|params?|fields?|propert(y|ies)|arguments?|unsupported|not (supported|permitted|allowed)|unknown|unrecognized|extra inputs)\b/i;

/** A JSON member's name (`"message":`): the shape of the error body, not its words. */
const JSON_KEY = /"[^"\\]{1,40}"\s*:/g;

/**
 * True when the refusal's text (the start of its body) may be about the output length: it speaks of
 * tokens, or it names no other cause (an empty or bare `Bad Request` says nothing either way).
 *
 * @example outputLengthMayCause('max_tokens is too large: 32000') // true
 * @example outputLengthMayCause('{"error":{"message":"Unsupported parameter: \'tools\'"}}') // false
 */
export function outputLengthMayCause(text: string): boolean {
  if (OUTPUT_WORDS.test(text)) return true;
  return !OTHER_CAUSE.test(text.replace(JSON_KEY, ' '));
}
