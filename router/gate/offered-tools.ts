/**
 * The tools a chat-completions request offers (`tools`, and the legacy `functions`): their names, which an
 * answer's calls are checked against, and the JSON type of each of their parameters, read from each tool's
 * schema (`parameters.properties.<name>.type`), for arguments a model writes as text, untyped. Pure.
 */
import { isRecord } from './safe-json.js';

/** A tool's parameters and their JSON types (`any`: the schema names the parameter but gives no one type). */
export type ParamTypes = ReadonlyMap<string, string>;

/** The names of the tools a request offers; with each one's parameter types when the request gave them. */
export interface OfferedTools extends ReadonlySet<string> {
  /** The parameters of tool `name` and their types, when its schema lists them. */
  readonly paramTypes?: (name: string) => ParamTypes | undefined;
}

/** The one JSON type a parameter's schema gives (`["integer", "null"]` gives `integer`), or `any`. */
function typeOf(schema: unknown): string {
  if (!isRecord(schema)) return 'any';
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type): type is string => typeof type === 'string' && type !== 'null',
  );
  return types.length === 1 ? (types[0] as string) : 'any';
}

/** The parameter types a tool's `parameters` schema lists, or undefined when it lists none. */
function paramTypesOf(parameters: unknown): ParamTypes | undefined {
  if (!isRecord(parameters) || !isRecord(parameters.properties)) return undefined;
  return new Map(Object.entries(parameters.properties).map(([name, schema]) => [name, typeOf(schema)]));
}

/** The offered names, with the parameter types each tool's schema lists. */
class ToolNames extends Set<string> implements OfferedTools {
  readonly #params = new Map<string, ParamTypes>();

  /** Adds a tool by name, with its `parameters` schema. */
  offer(name: string, parameters: unknown): void {
    this.add(name);
    const types = paramTypesOf(parameters);
    if (types !== undefined) this.#params.set(name, types);
  }

  readonly paramTypes = (name: string): ParamTypes | undefined => this.#params.get(name);
}

/**
 * The tools a chat-completions request offers (`tools`, and the legacy `functions`), by name.
 *
 * @example offeredToolNames({ tools: [{ type: 'function', function: { name: 'Read' } }] }).has('Read') // true
 */
export function offeredToolNames(body: Readonly<Record<string, unknown>>): OfferedTools {
  const names = new ToolNames();
  if (Array.isArray(body.tools))
    for (const tool of body.tools)
      if (isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string')
        names.offer(tool.function.name, tool.function.parameters);
  if (Array.isArray(body.functions))
    for (const fn of body.functions)
      if (isRecord(fn) && typeof fn.name === 'string') names.offer(fn.name, fn.parameters);
  return names;
}
