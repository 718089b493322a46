/**
 * A tool's JSON schema as upstreams take it, on every face. `$schema` is metadata (draft 2020-12, as the AI
 * SDK and MCP servers write it) that Google's API, among others, refuses as an unknown field: a request
 * carrying it is a 400 there however good the model.
 */
import { isRecord } from '../gate/safe-json.js';

/** `schema` without its `$schema` mark. */
function unmarked(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _unused, ...rest } = schema;
  return rest;
}

/** A tool's JSON schema as chat function `parameters`: always an object schema with `properties`, no `$schema`. */
export function functionParameters(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const rest = unmarked(schema ?? {});
  return { ...rest, type: rest.type ?? 'object', properties: rest.properties ?? {} };
}

/** A chat tool whose function's parameters carry a `$schema` mark, in its parts. */
interface MarkedTool {
  tool: Record<string, unknown>;
  fn: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

function marked(tool: unknown): MarkedTool | null {
  if (!isRecord(tool) || !isRecord(tool.function) || !isRecord(tool.function.parameters)) return null;
  const parameters = tool.function.parameters;
  return Object.hasOwn(parameters, '$schema') ? { tool, fn: tool.function, parameters } : null;
}

/**
 * A chat body whose tools' parameters carry no `$schema`: the body itself when none does (the agent's body
 * goes upstream as it came), else a copy with just those tools' parameters rewritten.
 */
export function withoutSchemaMarks(body: Record<string, unknown>): Record<string, unknown> {
  const tools = body.tools;
  if (!Array.isArray(tools) || !tools.some((tool) => marked(tool) !== null)) return body;
  const rewritten = tools.map((tool: unknown) => {
    const parts = marked(tool);
    if (parts === null) return tool;
    return { ...parts.tool, function: { ...parts.fn, parameters: unmarked(parts.parameters) } };
  });
  return { ...body, tools: rewritten };
}
