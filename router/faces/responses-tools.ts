/**
 * Responses tools → chat functions. A `namespace` tool's functions are flattened to `<namespace>__<name>`
 * (chat has no namespaces); a freeform (`custom`) tool becomes a function of one string, its `input`
 * (`responses-custom-tools.ts`). The encoder maps each such chat name back to what the agent knows
 * (`ToolNames`). Tools the Responses service runs (`web_search`, `file_search`, `mcp`, …) are dropped, and
 * so is `tool_search`, even a client-run one: its call comes back as a `tool_search_call` item whose output
 * loads more tools into the request, which no chat function can stand for.
 */
import type { ChatTool, ChatToolChoice } from './chat-request.js';
import { functionParameters } from './tool-parameters.js';
import { functionTool, namespaceTool, type ResponsesToolChoice } from './responses-schema.js';
import { fieldError, type FieldError } from './face-validation.js';
import { customChatFunction } from './responses-custom-tools.js';
import { allowedOffer, type OfferedTools } from './allowed-tools.js';

/** Between a namespace and a function name in a flattened chat function name. */
export const NAMESPACE_SEPARATOR = '__';

/** A tool as the agent knows it: its own name, its namespace, and whether it is a freeform (`custom`) tool. */
export interface AgentTool {
  name: string;
  namespace?: string;
  custom?: true;
}

/** Chat function name → the tool the agent knows, for the namespaced and custom tools (not plain functions). */
export type ToolNames = ReadonlyMap<string, AgentTool>;

/** The chat function name of a (possibly namespaced) function. */
export function flatName(namespace: string | null | undefined, name: string): string {
  return namespace ? `${namespace}${NAMESPACE_SEPARATOR}${name}` : name;
}

function chatFunction(tool: unknown, name: string, at: string): ChatTool | FieldError {
  const parsed = functionTool.safeParse(tool);
  if (!parsed.success) return fieldError(parsed.error, at);
  const { description, parameters, strict } = parsed.data;
  const fn: ChatTool['function'] = { name, parameters: functionParameters(parameters ?? undefined) };
  if (description) fn.description = description;
  if (typeof strict === 'boolean') fn.strict = strict;
  return { type: 'function', function: fn };
}

/** Collects a request's chat functions and the names to map back. */
class ChatToolList {
  readonly tools: ChatTool[] = [];
  readonly names = new Map<string, AgentTool>();

  /**
   * Adds a `function` or `custom` tool (in `namespace`, if given); null when it is neither (a hosted tool),
   * else the function added or the refusal of a tool that does not parse.
   */
  add(tool: { type: string }, namespace: string | null, at: string): ChatTool | FieldError | null {
    if (tool.type !== 'function' && tool.type !== 'custom') return null;
    const own = (tool as { name?: unknown }).name;
    const name = typeof own === 'string' ? own : '';
    const flat = flatName(namespace, name);
    const custom = tool.type === 'custom';
    const fn = custom ? customChatFunction(tool, flat, at) : chatFunction(tool, flat, at);
    if ('ok' in fn) return fn;
    this.tools.push(fn);
    const known: AgentTool = namespace ? { namespace, name } : { name };
    if (custom) known.custom = true;
    if (namespace || custom) this.names.set(flat, known);
    return fn;
  }
}

/** The chat functions of a request's tools, with the map back for namespaced and custom ones. */
export function chatTools(
  tools: readonly { type: string }[],
): { ok: true; tools: ChatTool[]; names: ToolNames } | FieldError {
  const list = new ChatToolList();
  for (const [i, tool] of tools.entries()) {
    const at = `tools[${i}]`;
    if (tool.type !== 'namespace') {
      const added = list.add(tool, null, at);
      if (added && 'ok' in added) return added;
      continue;
    }
    const parsed = namespaceTool.safeParse(tool);
    if (!parsed.success) return fieldError(parsed.error, at);
    const ns = parsed.data;
    for (const [j, inner] of ns.tools.entries()) {
      const fn = list.add(inner, ns.name, `${at}.tools[${j}]`);
      if (fn === null) continue;
      if ('ok' in fn) return fn;
      // The namespace's description is the functions' context (chat shows the model no namespace).
      if (ns.description) {
        const own = fn.function.description;
        fn.function.description = own ? `${ns.description}\n\n${own}` : ns.description;
      }
    }
  }
  return { ok: true, tools: list.tools, names: list.names };
}

/**
 * `tool_choice` in chat's words: forcing a function or a custom tool forces its chat function; forcing a
 * dropped tool is `auto`.
 */
function chatToolChoice(choice: ResponsesToolChoice): ChatToolChoice {
  if (typeof choice === 'string') return choice;
  if ((choice.type === 'function' || choice.type === 'custom') && choice.name) {
    return { type: 'function', function: { name: flatName(choice.namespace, choice.name) } };
  }
  return 'auto';
}

type AllowedEntry = { type: string } & Record<string, unknown>;

/** Whether chat function `chatName` is on an `allowed_tools` list: by its (namespaced) name or namespace. */
function isAllowed(chatName: string, names: ToolNames, entries: readonly AllowedEntry[]): boolean {
  return entries.some((entry) => {
    if (typeof entry.name !== 'string') return false;
    if (entry.type === 'namespace') return names.get(chatName)?.namespace === entry.name;
    if (entry.type !== 'function' && entry.type !== 'custom') return false;
    const namespace = typeof entry.namespace === 'string' ? entry.namespace : null;
    return flatName(namespace, entry.name) === chatName;
  });
}

/**
 * The tools and `tool_choice` the upstream gets. `allowed_tools` keeps the model to its list: only those
 * tools go, with `auto` or `required` from its `mode`; when none of them is left, no tools go at all
 * (`allowedOffer`).
 */
export function offeredTools(
  tools: ChatTool[],
  names: ToolNames,
  choice: ResponsesToolChoice | null | undefined,
): OfferedTools<ChatTool> {
  if (!choice) return { tools, choice: null };
  if (typeof choice === 'string' || choice.type !== 'allowed_tools')
    return { tools, choice: chatToolChoice(choice) };
  const entries = choice.tools ?? [];
  return allowedOffer(tools, (tool) => isAllowed(tool.function.name, names, entries), choice.mode);
}
