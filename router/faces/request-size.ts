/**
 * The one estimate of a request's size, for fitting it to a model before it is sent, for budgets when an
 * upstream reports no usage, and for `count_tokens`. It counts on the length of the body as the agent sent
 * it, less what no upstream is sent (earlier turns' reasoning, `unsent-text.ts`; the face has its bytes
 * already: nothing is serialised again), and walks the chat messages only to find images, whose inline data
 * is long in bytes but a fixed number of tokens to a model.
 *
 * Typical BPE tokenizers give about 4 characters per token on English and code, and 4.5 to 5 on JSON (tool
 * schemas, tool calls); a JSON body escapes text, so its length runs a little over the text's. One token per
 * 4.5 bytes of body lands within about 15 % of a real tokenizer on the recorded Claude Code and Codex
 * requests (see request-size.test.ts); it errs high rather than low on prose.
 */

/** Body bytes per token. */
export const BYTES_PER_TOKEN = 4.5;
/** Tokens of one image (Anthropic's figure for a full-size image; others count fewer). */
export const TOKENS_PER_IMAGE = 1600;

/** What a request needs from a model: its size and the features it uses. */
export interface RequestNeeds {
  /** Estimated input tokens: messages, system and tools. */
  input: number;
  /** The output length asked for (`max_tokens`, `max_completion_tokens`), or null when not asked. */
  output: number | null;
  /** It defines tools. */
  tools: boolean;
  /** It carries images. */
  images: boolean;
}

/** A request that needs nothing in particular (probes and tests of a model). */
export const SMALL_REQUEST: RequestNeeds = Object.freeze({
  input: 0,
  output: null,
  tools: false,
  images: false,
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Images among a message's content parts, and the length of their inline data. */
function imagesOf(content: unknown, found: { count: number; bytes: number }): void {
  if (!Array.isArray(content)) return;
  for (const part of content as unknown[]) {
    if (!isRecord(part) || part.type !== 'image_url') continue;
    found.count += 1;
    const image = part.image_url;
    const url = isRecord(image) ? image.url : image;
    if (typeof url === 'string') found.bytes += url.length;
  }
}

/** The output length a chat body asks for, or null. */
export function requestedOutput(chat: Readonly<Record<string, unknown>>): number | null {
  const asked = [chat.max_completion_tokens, chat.max_tokens].filter(
    (value): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0,
  );
  return asked.length === 0 ? null : Math.max(...asked);
}

/**
 * What a request needs: `bodyBytes` is the length of the agent's body, `chat` its chat-completions form (only
 * its `messages`, `tools` and output fields are looked at; anything malformed counts as absent). Pure; a walk
 * over the messages, no serialising.
 *
 * @example estimateNeeds(9000, { messages: [{ role: 'user', content: '…' }] }).input // 2000
 */
export function estimateNeeds(bodyBytes: number, chat: Readonly<Record<string, unknown>>): RequestNeeds {
  const found = { count: 0, bytes: 0 };
  const { messages, tools } = chat;
  if (Array.isArray(messages)) {
    for (const message of messages as unknown[]) if (isRecord(message)) imagesOf(message.content, found);
  }
  const textBytes = Math.max(0, bodyBytes - found.bytes);
  return {
    input: Math.ceil(textBytes / BYTES_PER_TOKEN) + found.count * TOKENS_PER_IMAGE,
    output: requestedOutput(chat),
    tools: Array.isArray(tools) && tools.length > 0,
    images: found.count > 0,
  };
}

/** Input and asked-for output together: what a model's window (and a minute's tokens) must hold. */
export function totalTokens(needs: RequestNeeds): number {
  return needs.input + (needs.output ?? 0);
}
