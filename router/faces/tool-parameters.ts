/**
 * A tool's JSON schema as upstreams take it, on every face. `$schema` is metadata (draft 2020-12, as the AI
 * SDK and MCP servers write it) that Google's API, among others, refuses as an unknown field: a request
 * carrying it is a 400 there however good the model.
 */
import { isRecord } from '../gate/safe-json.js';

/** A tool's JSON schema as chat function `parameters`: always an object schema with `properties`, no `$schema`. */
export function functionParameters(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const { $schema: _unused, ...rest } = schema ?? {};
  return { ...rest, type: rest.type ?? 'object', properties: rest.properties ?? {} };
}

function hasSchemaMark(tool: unknown): boolean {
  return isRecord(tool) && isRecord(tool.function) && isRecord(tool.function.parameters)
    ? Object.hasOwn(tool.function.parameters, '$schema')
    : false;
}

/**
 * A chat body whose tools' parameters carry no `$schema`: the body itself when none does (the agent's body
 * goes upstream as it came), else a copy with just those tools' parameters rewritten.
 */
export function withoutSchemaMarks(body: Record<string, unknown>): Record<string, unknown> {
  const tools = body.tools;
  if (!Array.isArray(tools) || !tools.some(hasSchemaMark)) return body;
  const rewritten = tools.map((tool: unknown) => {
    if (!hasSchemaMark(tool) || !isRecord(tool) || !isRecord(tool.function)) return tool;
    const { $schema: _unused, ...parameters } = tool.function.parameters as Record<string, unknown>;
    return { ...tool, function: { ...tool.function, parameters } };
  });
  return { ...body, tools: rewritten };
}
