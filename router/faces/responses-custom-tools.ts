/**
 * Freeform (`custom`) tools over chat functions, both ways. The client runs a custom tool as it runs a
 * function, but its call carries raw text (`input`), not JSON arguments; chat functions take only JSON. So a
 * custom tool goes upstream as a function of one string parameter, `input`, described with the tool's format
 * (its grammar, when it has one), and a call of it comes back as a `custom_tool_call` whose `input` is that
 * string. Codex's `apply_patch` (with a GPT-5 model name) and the AI SDK's `openai.tools.customTool` are such
 * tools.
 */
import type { ChatTool } from './chat-request.js';
import { parseJson, isRecord } from '../gate/safe-json.js';
import type { z } from 'zod';
import { customTool } from './responses-schema.js';
import { fieldError, type FieldError } from './face-validation.js';

type CustomFormat = z.infer<typeof customTool>['format'];

/** What the `input` parameter says: that it is the tool's raw input, and the shape the tool wants it in. */
function customInputDescription(format: CustomFormat): string {
  const raw = 'The raw freeform input for this tool, as plain text (not JSON).';
  if (!format || format.type === 'text') return `${raw} Unconstrained text.`;
  return `${raw} It must match this ${format.syntax} grammar:\n${format.definition}`;
}

/** A `custom` tool as the chat function `name` (its own name, or its flattened namespaced name). */
export function customChatFunction(tool: unknown, name: string, at: string): ChatTool | FieldError {
  const parsed = customTool.safeParse(tool);
  if (!parsed.success) return fieldError(parsed.error, at);
  const { description, format } = parsed.data;
  const input = { type: 'string', description: customInputDescription(format) };
  const fn: ChatTool['function'] = {
    name,
    parameters: { type: 'object', properties: { input }, required: ['input'] },
  };
  if (description) fn.description = description;
  return { type: 'function', function: fn };
}

/** A custom tool call's `input` as the chat function call's arguments. */
export function customCallArguments(input: string): string {
  return JSON.stringify({ input });
}

/**
 * The raw input of a custom tool called as a chat function: the `input` string of its JSON arguments. A model
 * that answered otherwise still meant its text as the input: a bare JSON string, the one string of an object
 * with a single field, or else the arguments as they came (not JSON: the model wrote the input itself).
 */
export function customCallInput(args: string): string {
  const parsed = parseJson(args);
  if (!parsed.ok) return args;
  const value = parsed.value;
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return args;
  if (typeof value.input === 'string') return value.input;
  const fields = Object.values(value);
  return fields.length === 1 && typeof fields[0] === 'string' ? fields[0] : args;
}
