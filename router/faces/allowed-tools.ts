/**
 * `tool_choice: {type: "allowed_tools"}` in the plain form every upstream takes. The choice keeps the model to
 * a list of the request's tools; few free upstreams know it (some refuse the request, others ignore it). So
 * only the allowed tools go, with `tool_choice` `required` or `auto` by the choice's mode, and no tools at all
 * when none of them is left. The Responses face lists tools by `{type, name}`, chat completions by
 * `{type: "function", function: {name}}`; both come down to `allowedOffer`. A chat body left offering no
 * tool goes without `tools` and the fields that only go with them (`withoutEmptyOffer`).
 */
import { z } from 'zod';
import { isRecord } from '../gate/safe-json.js';
import type { ChatToolChoice } from './chat-request.js';
import { fieldError, type FieldError } from './face-validation.js';

/** The tools the upstream is offered, and how it must choose among them (null: not said). */
export interface OfferedTools<T> {
  tools: T[];
  choice: ChatToolChoice | null;
}

/**
 * The `tools` an `allowed_tools` choice keeps (those `allowed` says yes to), with `required` when its `mode`
 * is `required`, else `auto`; no tools and no choice when none is kept.
 *
 * @example allowedOffer(['a', 'b'], (name) => name === 'b', 'required') // { tools: ['b'], choice: 'required' }
 */
export function allowedOffer<T>(
  tools: readonly T[],
  allowed: (tool: T) => boolean,
  mode: string | undefined,
): OfferedTools<T> {
  const kept = tools.filter(allowed);
  if (kept.length === 0) return { tools: [], choice: null };
  return { tools: kept, choice: mode === 'required' ? 'required' : 'auto' };
}

const named = z.object({ name: z.string() });

/** Chat's `allowed_tools` choice, as the OpenAI API defines it (`ChatCompletionAllowedToolChoice`). */
const chatAllowedChoice = z.object({
  type: z.literal('allowed_tools'),
  allowed_tools: z.object({
    mode: z.enum(['auto', 'required']),
    tools: z.array(
      z.union([
        z.looseObject({ type: z.literal('function'), function: named }),
        z.looseObject({ type: z.literal('custom'), custom: named }),
      ]),
    ),
  }),
});

/** A chat tool's (or allowed entry's) kind and name, `function/read`; null when it names none. */
function toolKey(tool: unknown): string | null {
  if (!isRecord(tool) || (tool.type !== 'function' && tool.type !== 'custom')) return null;
  const own = tool[tool.type];
  return isRecord(own) && typeof own.name === 'string' ? `${tool.type}/${own.name}` : null;
}

/** Chat's `tool_choice` as an `allowed_tools` choice, when it claims to be one. */
function claimsAllowedTools(choice: unknown): boolean {
  return isRecord(choice) && choice.type === 'allowed_tools';
}

/**
 * A chat body that offers no tool (`tools` absent, null or `[]`) without the fields that only go with tools:
 * OpenAI's API refuses an empty `tools`, and a `tool_choice` or `parallel_tool_calls` without tools, so every
 * model of a set would only refuse the request in turn. The Messages and Responses faces send none of them
 * either when no tool is left. The body itself when it has none of them.
 */
export function withoutEmptyOffer(body: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(body.tools) && body.tools.length > 0) return body;
  if (!('tools' in body) && !('tool_choice' in body) && !('parallel_tool_calls' in body)) return body;
  const { tools: _tools, tool_choice: _choice, parallel_tool_calls: _parallel, ...rest } = body;
  return rest;
}

/**
 * A chat body whose `allowed_tools` choice is in the plain form (`allowedOffer`): the body itself when its
 * choice is another, else a copy with `tools` and `tool_choice` rewritten (with no tool left, `tools: []` and
 * no choice, which `withoutEmptyOffer` then leaves out); a malformed choice is a 400 naming its field.
 */
export function withAllowedTools(
  body: Record<string, unknown>,
): { ok: true; body: Record<string, unknown> } | FieldError {
  if (!claimsAllowedTools(body.tool_choice)) return { ok: true, body };
  const parsed = chatAllowedChoice.safeParse(body.tool_choice);
  if (!parsed.success) return fieldError(parsed.error, 'tool_choice');
  const { mode, tools: entries } = parsed.data.allowed_tools;
  const names = new Set(entries.map(toolKey));
  const tools: unknown[] = Array.isArray(body.tools) ? body.tools : [];
  const offer = allowedOffer(tools, (tool) => names.has(toolKey(tool)), mode);
  const { tool_choice: _choice, ...rest } = body;
  const choice = offer.choice === null ? {} : { tool_choice: offer.choice };
  return { ok: true, body: { ...rest, tools: offer.tools, ...choice } };
}
