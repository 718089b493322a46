/**
 * Item references both ways: an answer's output items as the items to keep (`keptOutputs`), and a request's
 * `item_reference` items expanded from what was kept (`expandReferences`), or a 400 naming the reference the
 * router does not hold.
 */
import { refuse, type FieldError } from './face-validation.js';
import type { ItemLookup, KeptItem, KeptOutput } from './responses-item-store.js';
import type { ResponsesInputItem, ResponsesItem } from './responses-schema.js';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A message item's text: its `output_text` parts joined. */
function messageText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => str((part as { text?: unknown } | null)?.text)).join('');
}

/** One output item of an answer (as `responses-items.ts` builds them) as the input item it stands for. */
function keptItem(output: Readonly<Record<string, unknown>>): KeptItem | null {
  switch (output.type) {
    case 'message':
      return { type: 'message', role: 'assistant', content: messageText(output.content) };
    case 'function_call':
    case 'custom_tool_call': {
      const naming = { call_id: str(output.call_id), name: str(output.name) };
      const call: KeptItem =
        output.type === 'function_call'
          ? { type: 'function_call', ...naming, arguments: str(output.arguments) }
          : { type: 'custom_tool_call', ...naming, input: str(output.input) };
      if (typeof output.namespace === 'string') call.namespace = output.namespace;
      return call;
    }
    case 'reasoning':
      return { type: 'reasoning' };
    default:
      return null;
  }
}

/** The items of a served answer's `output`, to keep. */
export function keptOutputs(output: readonly Readonly<Record<string, unknown>>[]): KeptOutput[] {
  const kept: KeptOutput[] = [];
  for (const item of output) {
    const id = item.id;
    const form = keptItem(item);
    if (typeof id === 'string' && id !== '' && form) kept.push({ id, item: form });
  }
  return kept;
}

/** Holds nothing: every reference is refused. */
export const NO_ITEMS: ItemLookup = { find: () => undefined };

/**
 * `input` with each `item_reference` replaced by the item it names, or a 400 naming the first reference
 * the router does not hold.
 */
export function expandReferences(
  input: string | readonly ResponsesItem[],
  items: ItemLookup,
): { ok: true; input: string | ResponsesInputItem[] } | FieldError {
  if (typeof input === 'string') return { ok: true, input };
  const out: ResponsesInputItem[] = [];
  for (const [i, item] of input.entries()) {
    if (item.type !== 'item_reference') {
      out.push(item);
      continue;
    }
    const found = items.find(item.id);
    if (!found) {
      return refuse(
        `input[${i}]`,
        `refers to item ${JSON.stringify(item.id)}, which fcm-router does not hold: it keeps the items of recent answers in memory only, for a while, and not across restarts; send the conversation whole in \`input\` (set \`store: false\` on the client)`,
      );
    }
    out.push(found);
  }
  return { ok: true, input: out };
}
