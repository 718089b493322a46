/**
 * What of an agent's body never goes upstream: earlier turns' reasoning (Anthropic `thinking` blocks, which
 * Claude Code sends back with their text on every turn of a tool loop; Responses `reasoning` items, whose
 * summaries Codex sends back, and encrypted compactions). The router estimates a request's size on the length
 * of the body the agent sent (`request-size.ts`); counted there, a session with a thinking model would look
 * larger, turn after turn, to every model's window and every key's minute than what any model is sent.
 */

/**
 * The characters of a JSON value's keys and strings: near its serialised length for a block of text, and
 * never more than it (its punctuation is not counted, and a character of several UTF-8 bytes counts once).
 *
 * @example textLength({ type: 'thinking', thinking: 'abc' }) // 19
 */
export function textLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((sum: number, item: unknown) => sum + textLength(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let sum = 0;
  for (const [key, item] of Object.entries(value)) sum += key.length + textLength(item);
  return sum;
}

/** The text of `items` whose `type` is one of `dropped`: what an upstream is never sent. */
export function droppedLength(items: readonly unknown[], dropped: ReadonlySet<string>): number {
  let sum = 0;
  for (const item of items) {
    const type = typeof item === 'object' && item !== null ? (item as { type?: unknown }).type : undefined;
    if (typeof type === 'string' && dropped.has(type)) sum += textLength(item);
  }
  return sum;
}
