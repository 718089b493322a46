/**
 * A `tool_choice` that forces a function the request does not offer. OpenAI's API and vLLM (which many
 * providers run) refuse such a request, so every model of the set would be asked only to refuse it in turn;
 * the router refuses it first, naming the tool. Checked on the chat body every face comes down to. Pure.
 */
import { isRecord } from '../gate/safe-json.js';
import { refuse, type FieldError } from './face-validation.js';

/** The 400 for a chat body whose `tool_choice` names a function its `tools` do not hold; null otherwise. */
export function forcedToolNotOffered(chat: Readonly<Record<string, unknown>>): FieldError | null {
  const choice = chat.tool_choice;
  if (!isRecord(choice) || choice.type !== 'function' || !isRecord(choice.function)) return null;
  const { name } = choice.function;
  if (typeof name !== 'string') return null;
  const tools: unknown[] = Array.isArray(chat.tools) ? chat.tools : [];
  const offered = tools.some(
    (tool) => isRecord(tool) && isRecord(tool.function) && tool.function.name === name,
  );
  return offered
    ? null
    : refuse('tool_choice', `forces the tool "${name}", which is not among the request's tools`);
}
