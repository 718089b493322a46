/**
 * Mistral's rules for a conversation, which its API and the chat templates its models are served with check
 * (a 400 otherwise): a tool call's id is exactly nine letters and digits, a tool result is never followed
 * directly by a user message, and the conversation does not end on the assistant's words (unless marked as
 * a prefix to continue, which agents do not mean). Agents break all three as a matter of course: their ids
 * read `toolu_01…` or `call_…` (another model made them), a Messages user turn that holds tool results and
 * text (Claude Code's reminders) becomes tool messages followed by a user message, and OpenCode ends its
 * last allowed step on an assistant message telling the model to wrap up. Without these rules a Mistral
 * model could serve no agent's turn after its first tool call. Pure.
 */
import { createHash } from 'node:crypto';
import { isRecord } from '../gate/safe-json.js';

/** The assistant's words put between a tool result and a user message, as other agents' Mistral support does. */
export const TOOL_TO_USER_BRIDGE = 'Done.';

/**
 * The user's words put after a conversation that ends on the assistant's words: the model then writes the
 * next turn with those words before it, as OpenAI's models do with such a conversation.
 */
export const ASSISTANT_END_BRIDGE = 'Continue.';

const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Nine letters and digits from a hash of `text`: the same id gives the same one in every request. */
function hashedId(text: string): string {
  const digest = createHash('sha256').update(text).digest();
  let id = '';
  for (let at = 0; at < 9; at += 1) id += ALPHABET[(digest[at] ?? 0) % ALPHABET.length] ?? 'A';
  return id;
}

/** One request's ids, each given a Mistral id once: a tool call and its result keep matching. */
class IdMap {
  readonly #ids = new Map<string, string>();
  readonly #taken = new Set<string>();

  of(id: string): string {
    const known = this.#ids.get(id);
    if (known !== undefined) return known;
    let mapped = MISTRAL_ID.test(id) ? id : hashedId(id);
    for (let salt = 1; this.#taken.has(mapped); salt += 1) mapped = hashedId(`${id}\u0000${salt}`);
    this.#ids.set(id, mapped);
    this.#taken.add(mapped);
    return mapped;
  }
}

function withCallIds(message: Record<string, unknown>, ids: IdMap): Record<string, unknown> {
  if (message.role === 'tool' && typeof message.tool_call_id === 'string')
    return { ...message, tool_call_id: ids.of(message.tool_call_id) };
  if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return message;
  const calls = message.tool_calls.map((call: unknown) =>
    isRecord(call) && typeof call.id === 'string' ? { ...call, id: ids.of(call.id) } : call,
  );
  return { ...message, tool_calls: calls };
}

/**
 * `messages` as Mistral takes them: every tool call id (and its result's) given as nine letters and digits
 * (kept when it is one already), a short assistant turn put between a tool result and a user message, and a
 * short user turn after a last assistant message that holds words only (one with tool calls is the
 * agent's to answer; one marked `prefix` is Mistral's own continuation). The input is not changed.
 *
 * @example mistralConversation([{ role: 'tool', tool_call_id: 'toolu_01', content: 'ok' }, { role: 'user', content: 'go on' }])
 *   // [{ role: 'tool', tool_call_id: '<nine letters and digits>', content: 'ok' },
 *   //  { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'go on' }]
 */
export function mistralConversation(messages: readonly unknown[]): unknown[] {
  const ids = new IdMap();
  const out: unknown[] = [];
  let previous: unknown = null;
  for (const message of messages) {
    if (!isRecord(message)) {
      out.push(message);
    } else {
      if (message.role === 'user' && isRecord(previous) && previous.role === 'tool')
        out.push({ role: 'assistant', content: TOOL_TO_USER_BRIDGE });
      out.push(withCallIds(message, ids));
    }
    previous = message;
  }
  if (endsOnAssistantWords(previous)) out.push({ role: 'user', content: ASSISTANT_END_BRIDGE });
  return out;
}

function endsOnAssistantWords(last: unknown): boolean {
  if (!isRecord(last) || last.role !== 'assistant' || last.prefix === true) return false;
  return !Array.isArray(last.tool_calls) || last.tool_calls.length === 0;
}
