/**
 * Tool calls written into the text. A model whose provider does not parse its tool calls (no tool parser
 * in the server, a chat template that does not match) writes them as text, in its family's markup
 * (`call-markup.ts`: Hermes-style `<tool_call>`, Mistral's `[TOOL_CALLS]`, `<function=name>`, Kimi's and
 * DeepSeek's tokens…), or as the bare JSON of a call as the whole answer (`{"name", "parameters"}`, as
 * Llama's templates ask; OpenAI's own shape, or a `tool_calls` list of them). The agent then gets markup where
 * it needed a call, and its turn ends. An answer whose words are only such calls is read back into calls (and
 * checked like any call); one that opens with call markup the router cannot read fails over like any call an
 * agent cannot run. Pure.
 */
import { CALL_KEYS, FENCE, jsonCalls, MARKUP, withoutFence, type TextCall } from './call-markup.js';
import type { OfferedTools } from './offered-tools.js';

/** What an answer's text holds: calls written into it, call markup that cannot be read, or words. */
export type TextCallReading =
  { kind: 'calls'; calls: TextCall[] } | { kind: 'unreadable'; detail: string } | { kind: 'words' };

/** Every opener of call markup the router reads. */
const OPENERS = MARKUP.map(([opener]) => opener);

const WORDS: TextCallReading = { kind: 'words' };
const unreadable = (form: string): TextCallReading => ({
  kind: 'unreadable',
  detail: `a tool call written into the text (${form}) that cannot be read as one`,
});

/**
 * What an answer's words (its text past a think block) are: calls written into them, call markup that cannot
 * be read, or words. Bare JSON counts only as calls to tools in `offered`, so a JSON answer is never taken
 * for one; markup is a call whatever it names (`toolCallProblem` judges the name, as for any call). With no
 * tool offered, nothing is a call.
 *
 * @example readTextCalls('<tool_call>{"name":"Read","arguments":{"path":"a"}}</tool_call>', new Set(['Read']))
 * // { kind: 'calls', calls: [{ name: 'Read', args: '{"path":"a"}' }] }
 */
export function readTextCalls(words: string, offered: OfferedTools): TextCallReading {
  // With no tool offered, a call written as text is text: there is nothing it could call.
  if (offered.size === 0) return WORDS;
  const text = words.trim();
  const markup = MARKUP.find(([opener]) => text.startsWith(opener));
  if (markup !== undefined) {
    const [opener, read] = markup;
    const calls = read(text, offered);
    return calls === null ? unreadable(opener) : { kind: 'calls', calls };
  }
  const json = withoutFence(text);
  if (!json.startsWith('{') && !json.startsWith('[')) return WORDS;
  const calls = jsonCalls(json);
  return calls !== null && calls.every((call) => offered.has(call.name)) ? { kind: 'calls', calls } : WORDS;
}

/** What the first characters of an answer's text (leading blanks dropped) tell while it streams. */
export type TextStart = 'unknown' | 'maybe_calls' | 'words';

/** The keys JSON that may be calls begins with (`jsonCalls`): JSON whose first key is another is no call. */
const FIRST_KEYS = [...CALL_KEYS, 'function', 'tool_calls'];

/** The start of JSON (`{`, or `[` then `{`): maybe a call while its first key may be one of a call's. */
function jsonStart(start: string): TextStart {
  let rest = start.startsWith('[') ? start.slice(1).trimStart() : start;
  if (rest === '') return 'unknown';
  if (!rest.startsWith('{')) return 'words';
  rest = rest.slice(1).trimStart();
  if (rest === '') return 'unknown';
  if (!rest.startsWith('"')) return 'words';
  const close = rest.indexOf('"', 1);
  if (close !== -1) return FIRST_KEYS.includes(rest.slice(1, close)) ? 'maybe_calls' : 'words';
  return FIRST_KEYS.some((key) => key.startsWith(rest.slice(1))) ? 'unknown' : 'words';
}

/**
 * Whether a streamed answer whose text so far (leading blanks dropped) is `start` may be calls written as
 * text: not known yet (blank, the start of call markup, of a fence or of JSON), maybe (call markup, JSON
 * whose first key is a call's, alone or in a JSON fence: only its end tells), or words. Only the first few
 * characters ever wait: a word, a markdown link or JSON of another shape goes on at once.
 *
 * @example textStart('<tool_') // 'unknown'
 * @example textStart('{"name"') // 'maybe_calls'
 * @example textStart('Sure, ') // 'words'
 */
export function textStart(start: string): TextStart {
  if (OPENERS.some((opener) => start.startsWith(opener))) return 'maybe_calls';
  if (start === '' || OPENERS.some((opener) => opener.startsWith(start))) return 'unknown';
  if (start.startsWith('{') || start.startsWith('[')) return jsonStart(start);
  if (FENCE.startsWith(start)) return 'unknown';
  if (!start.startsWith(FENCE)) return 'words';
  const newline = start.indexOf('\n');
  if (newline === -1) return 'unknown';
  const info = start.slice(FENCE.length, newline).trim();
  if (info !== '' && info !== 'json') return 'words';
  return jsonStart(start.slice(newline + 1).trimStart());
}
