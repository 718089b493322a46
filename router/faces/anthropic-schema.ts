/**
 * The Anthropic Messages request as this face reads it. Only what is translated is checked; unknown fields
 * (and accepted-but-unused ones like `metadata`, `thinking`, `context_management`) are left out of the
 * parsed value.
 */
import { z } from 'zod';

export const textBlock = z.object({ type: z.literal('text'), text: z.string() });

export const imageSource = z.discriminatedUnion('type', [
  z.object({ type: z.literal('base64'), media_type: z.string().min(1), data: z.string() }),
  z.object({ type: z.literal('url'), url: z.string().min(1) }),
]);

const imageBlock = z.object({ type: z.literal('image'), source: imageSource });

export const documentBlock = z.object({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), data: z.string() }),
    z.object({ type: z.literal('base64'), media_type: z.string() }),
    z.object({ type: z.literal('url'), url: z.string() }),
    z.object({ type: z.literal('content'), content: z.union([z.string(), z.array(textBlock)]) }),
  ]),
  title: z.string().nullish(),
});

const toolUseBlock = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.unknown(),
});

/** A part of a tool result's content: text, image, `tool_reference` or another kind, read loosely. */
const resultPart = z.looseObject({ type: z.string() });

const toolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(resultPart)]).optional(),
  is_error: z.boolean().optional(),
});

/** Earlier turns' reasoning: accepted and dropped (an upstream cannot check Anthropic's signatures). */
const thinkingBlock = z.looseObject({ type: z.enum(['thinking', 'redacted_thinking']) });

const contentBlock = z.discriminatedUnion('type', [
  textBlock,
  imageBlock,
  documentBlock,
  toolUseBlock,
  toolResultBlock,
  thinkingBlock,
]);

const message = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(contentBlock)]),
});

const tool = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  /** Absent or `custom` for the agent's own tools; anything else is a tool Anthropic runs itself. */
  type: z.string().optional(),
  defer_loading: z.boolean().optional(),
});

const toolChoice = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({
    type: z.literal('tool'),
    name: z.string().min(1),
    disable_parallel_tool_use: z.boolean().optional(),
  }),
  z.object({ type: z.literal('none') }),
]);

/** The fields `count_tokens` shares with a Messages request. */
export const countTokensSchema = z.object({
  model: z.string().min(1).max(300),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  messages: z.array(message).min(1),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
});

export const messagesSchema = countTokensSchema.extend({
  max_tokens: z.number().int().positive(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).optional(),
  top_p: z.number().min(0).max(1).optional(),
  stream: z.boolean().nullish(),
  thinking: z.looseObject({ type: z.string() }).optional(),
  output_config: z.looseObject({ effort: z.string().optional() }).optional(),
});

export type AnthropicMessage = z.infer<typeof message>;
export type AnthropicBlock = z.infer<typeof contentBlock>;
export type AnthropicTool = z.infer<typeof tool>;
export type AnthropicToolChoice = z.infer<typeof toolChoice>;
export type CountTokensBody = z.infer<typeof countTokensSchema>;
export type MessagesBody = z.infer<typeof messagesSchema>;
