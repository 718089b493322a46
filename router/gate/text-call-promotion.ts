/**
 * A whole answer's calls written into its text, read back into calls in place (`readTextCalls` for an
 * answer that is only calls, `callsAfterWords` for calls after its words), before the gate checks every
 * call. Pure.
 */
import { callsAfterWords } from './calls-after-words.js';
import type { OfferedTools } from './offered-tools.js';
import { isRecord } from './safe-json.js';
import { readTextCalls } from './text-calls.js';
import { textPastThinkBlock } from './think-tags.js';

/**
 * Reads calls written into a whole answer's first choice back into calls, in place: its `message.content`
 * keeps what came before them (a think block, words) or becomes null, and `tool_calls` holds them (their ids
 * are minted as the face writes the answer). Only a message without calls of its own is read.
 *
 * @returns true when calls were read, why the text's call markup cannot be read, or false (words).
 */
export function promoteTextCalls(choice: Record<string, unknown>, offered: OfferedTools): boolean | string {
  const message = choice.message;
  // With no tool offered, a call written as text is text: there is nothing it could call.
  if (offered.size === 0 || !isRecord(message) || typeof message.content !== 'string') return false;
  const { tool_calls: own, function_call: legacy } = message;
  if ((Array.isArray(own) && own.length > 0) || legacy != null) return false;
  const words = textPastThinkBlock(message.content);
  const reading = readTextCalls(words, offered);
  if (reading.kind === 'unreadable') return reading.detail;
  const after = reading.kind === 'words' ? callsAfterWords(words, offered) : null;
  const calls = reading.kind === 'calls' ? reading.calls : after?.calls;
  if (calls === undefined) return false;
  const thoughts = message.content.slice(0, message.content.length - words.length);
  const before = (thoughts + (after?.words ?? '')).trimEnd();
  message.content = before === '' ? null : before;
  message.tool_calls = calls.map((call) => ({
    type: 'function',
    function: { name: call.name, arguments: call.args },
  }));
  return true;
}
