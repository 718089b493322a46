/**
 * The chat-completions request as the router checks it before routing. The body goes upstream as the agent
 * sent it, so this names only what no provider takes (a message without a role, content that is a number,
 * a function tool without a name, a negative `max_tokens`), in one 400 before any model is asked: such a
 * body would otherwise be refused by every model of the set in turn. Everything it does not name passes:
 * a provider's own fields, content parts of any type, tools of other types.
 */
import { z } from 'zod';

/** A content part: any type, though a `text` it carries must be text. */
const contentPart = z.looseObject({ type: z.string(), text: z.string().nullish() });

const content = z.union([z.string(), z.array(contentPart)]).nullish();

const toolCall = z.looseObject({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string() }),
});

const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content,
  name: z.string().nullish(),
  tool_call_id: z.string().nullish(),
  tool_calls: z.array(toolCall).nullish(),
});

const functionSpec = z.looseObject({
  name: z.string().min(1, { error: 'must not be empty' }),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
});

/** A function tool (its `type` may be left out, as some servers allow), or one of another type, as it is. */
const tool = z
  .looseObject({ type: z.string().optional(), function: functionSpec.optional() })
  .refine((spec) => (spec.type ?? 'function') !== 'function' || spec.function !== undefined, {
    path: ['function'],
    error: 'a function tool needs its "function" (name and parameters)',
  });

const positiveInteger = z.number().int().positive().nullish();
const number = z.number().nullish();

/** The fields of a chat-completions body the router checks; all others pass unread. */
export const chatSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(message).min(1, { error: 'must hold at least one message' }),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({}).nullish(),
  tools: z.array(tool).nullish(),
  tool_choice: z.union([z.string(), z.looseObject({ type: z.string() })]).nullish(),
  max_tokens: positiveInteger,
  max_completion_tokens: positiveInteger,
  n: positiveInteger,
  // The ranges every provider holds, as the other faces check them.
  temperature: z.number().min(0).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  presence_penalty: number,
  frequency_penalty: number,
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
});
