/**
 * Responses tools → chat functions. A `namespace` tool's functions are flattened to `<namespace>__<name>`
 * (chat has no namespaces) and the encoder maps such a name back to `{ namespace, name }`. Tools only the
 * Responses service can run (`web_search`, `file_search`, `custom`, `mcp`, …) are dropped.
 */
import type { ChatTool, ChatToolChoice } from './chat-request.js';
import { functionParameters } from './tool-parameters.js';
import { functionTool, namespaceTool, type ResponsesToolChoice } from './responses-schema.js';
import { fieldError, type FieldError } from './face-validation.js';

/** Between a namespace and a function name in a flattened chat function name. */
export const NAMESPACE_SEPARATOR = '__';

/** Flattened chat function name → the namespace and function name the agent knows. */
export type ToolNames = ReadonlyMap<string, { namespace: string; name: string }>;

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

/** The chat functions of a request's tools, with the map back for namespaced ones. */
export function chatTools(
  tools: readonly { type: string }[],
): { ok: true; tools: ChatTool[]; names: ToolNames } | FieldError {
  const out: ChatTool[] = [];
  const names = new Map<string, { namespace: string; name: string }>();
  for (const [i, tool] of tools.entries()) {
    const at = `tools[${i}]`;
    if (tool.type === 'function') {
      const name = (tool as { name?: unknown }).name;
      const fn = chatFunction(tool, typeof name === 'string' ? name : '', at);
      if ('ok' in fn) return fn;
      out.push(fn);
    } else if (tool.type === 'namespace') {
      const parsed = namespaceTool.safeParse(tool);
      if (!parsed.success) return fieldError(parsed.error, at);
      const ns = parsed.data;
      for (const [j, inner] of ns.tools.entries()) {
        // Freeform (`custom`) tools take raw text, which chat functions cannot express.
        if (inner.type !== 'function') continue;
        const name = typeof inner.name === 'string' ? inner.name : '';
        const flat = flatName(ns.name, name);
        const fn = chatFunction(inner, flat, `${at}.tools[${j}]`);
        if ('ok' in fn) return fn;
        // The namespace's description is the functions' context (chat shows the model no namespace).
        if (ns.description) {
          const own = fn.function.description;
          fn.function.description = own ? `${ns.description}\n\n${own}` : ns.description;
        }
        out.push(fn);
        names.set(flat, { namespace: ns.name, name });
      }
    }
  }
  return { ok: true, tools: out, names };
}

/** `tool_choice` in chat's words: forcing a function keeps it; forcing a dropped tool is `auto`. */
function chatToolChoice(choice: ResponsesToolChoice): ChatToolChoice {
  if (typeof choice === 'string') return choice;
  if (choice.type === 'function' && choice.name) {
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
    if (entry.type !== 'function') return false;
    const namespace = typeof entry.namespace === 'string' ? entry.namespace : null;
    return flatName(namespace, entry.name) === chatName;
  });
}

/** The tools the upstream is offered, and how it must choose among them (null: not said). */
export interface OfferedTools {
  tools: ChatTool[];
  choice: ChatToolChoice | null;
}

/**
 * The tools and `tool_choice` the upstream gets. `allowed_tools` keeps the model to its list: only those
 * tools go, with `auto` or `required` from its `mode`; when none of them is left, no tools go at all.
 */
export function offeredTools(
  tools: ChatTool[],
  names: ToolNames,
  choice: ResponsesToolChoice | null | undefined,
): OfferedTools {
  if (!choice) return { tools, choice: null };
  if (typeof choice === 'string' || choice.type !== 'allowed_tools')
    return { tools, choice: chatToolChoice(choice) };
  const allowed = tools.filter((tool) => isAllowed(tool.function.name, names, choice.tools ?? []));
  if (allowed.length === 0) return { tools: [], choice: null };
  return { tools: allowed, choice: choice.mode === 'required' ? 'required' : 'auto' };
}
