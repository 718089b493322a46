/**
 * The OpenAI Responses request as this face reads it. Only what is translated or decides something is
 * checked; fields accepted but not forwarded (`include`, `prompt_cache_key`, `client_metadata`, `metadata`,
 * …) are left out of the parsed value. Tools are read loosely here and checked one by one as they are
 * translated.
 */
import { z } from 'zod';
import { isRecord } from '../gate/safe-json.js';

const inputText = z.object({ type: z.literal('input_text'), text: z.string() });
const outputText = z.object({ type: z.literal('output_text'), text: z.string() });
const refusal = z.object({ type: z.literal('refusal'), refusal: z.string() });
const inputImage = z.object({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.string().nullish(),
});
const inputFile = z.looseObject({ type: z.literal('input_file') });

const contentPart = z.discriminatedUnion('type', [inputText, outputText, refusal, inputImage, inputFile]);

const messageItem = z.object({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(contentPart)]),
});

const functionCallItem = z.object({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().nullish(),
  arguments: z.string(),
});

const functionCallOutputItem = z.object({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(contentPart)]),
});

/** A call of a freeform (`custom`) tool: its raw text `input` where a function call has JSON arguments. */
const customToolCallItem = z.object({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().nullish(),
  input: z.string(),
});

const customToolCallOutputItem = z.object({
  type: z.literal('custom_tool_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(contentPart)]),
});

/** Items an upstream cannot use: earlier reasoning and compactions are encrypted, a web search ran elsewhere. */
export const DROPPED_ITEM_TYPES = ['reasoning', 'compaction', 'web_search_call'] as const;
const droppedItem = z.looseObject({ type: z.enum(DROPPED_ITEM_TYPES) });

/** An item of an earlier answer, by id (the router expands it from the items it kept). */
const itemReference = z.object({ type: z.literal('item_reference'), id: z.string().min(1).max(200) });

/** The type an item left out: a message has a `role`; a bare `id` is a reference (OpenAI's `type` is optional there). */
function impliedType(item: Record<string, unknown>): string | undefined {
  if ('role' in item) return 'message';
  if ('id' in item) return 'item_reference';
  return undefined;
}

/** A message may leave out `type` (the "easy input message" form), and so may an item reference. */
const inputItem = z.preprocess(
  (item) => {
    if (!isRecord(item) || item.type !== undefined) return item;
    const type = impliedType(item);
    return type === undefined ? item : { ...item, type };
  },
  z.discriminatedUnion('type', [
    messageItem,
    functionCallItem,
    functionCallOutputItem,
    customToolCallItem,
    customToolCallOutputItem,
    droppedItem,
    itemReference,
  ]),
);

export const functionTool = z.object({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

/** A freeform tool: the model writes its input as text, shaped by `format` (unconstrained by default). */
export const customTool = z.object({
  type: z.literal('custom'),
  name: z.string().min(1),
  description: z.string().nullish(),
  format: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('text') }),
      z.object({ type: z.literal('grammar'), syntax: z.string(), definition: z.string() }),
    ])
    .nullish(),
});

export const namespaceTool = z.object({
  type: z.literal('namespace'),
  name: z.string().min(1),
  description: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })),
});

const toolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.looseObject({
    type: z.string(),
    name: z.string().optional(),
    namespace: z.string().nullish(),
    mode: z.string().optional(),
    /** `allowed_tools`: the tools the model may call, each as `{type, name}` (or `{type: "namespace", name}`). */
    tools: z.array(z.looseObject({ type: z.string() })).optional(),
  }),
]);

const textFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullish(),
  }),
]);

/** How much of the reasoning an answer shows, as summary text (`none`, or no value: none). */
const reasoningSummary = z.enum(['auto', 'concise', 'detailed', 'none']);

export const responsesSchema = z.object({
  model: z.string().min(1).max(300),
  instructions: z.string().nullish(),
  input: z.union([z.string(), z.array(inputItem)]),
  tools: z.array(z.looseObject({ type: z.string() })).nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  reasoning: z
    .object({
      effort: z.string().nullish(),
      summary: reasoningSummary.nullish(),
      /** The older name of `summary`. */
      generate_summary: reasoningSummary.nullish(),
    })
    .nullish(),
  text: z.object({ format: textFormat.optional() }).nullish(),
  stream: z.boolean().nullish(),
  /** `false`: the answer's items are not kept, so nothing can refer to them later. */
  store: z.boolean().nullish(),
  previous_response_id: z.string().nullish(),
  conversation: z.unknown().optional(),
});

export type ResponsesBody = z.infer<typeof responsesSchema>;
export type ResponsesItem = Extract<z.infer<typeof responsesSchema>['input'], unknown[]>[number];
/** An input item once references are expanded. */
export type ResponsesInputItem = Exclude<ResponsesItem, { type: 'item_reference' }>;
export type ResponsesPart = z.infer<typeof contentPart>;
export type ResponsesToolChoice = z.infer<typeof toolChoice>;
