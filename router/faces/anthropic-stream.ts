/**
 * The upstream's chat-completions stream as Anthropic Messages events, in the order the SDKs expect:
 * `message_start`, then per content block `content_block_start` / `content_block_delta`s /
 * `content_block_stop`, then `message_delta` (stop reason, usage) and `message_stop`. Blocks follow one
 * another (reasoning → `thinking`, text → `text`, each tool call → `tool_use`); a block closes when content
 * of another kind, or another tool call, begins. Each event's text is built once, as it is sent.
 *
 * A tool call's pieces must come in order, as every OpenAI-compatible upstream sends them: a piece for a
 * call whose block has already closed (another call began in between) cannot be sent and is dropped.
 */
import type { FaceStreamWriter, StreamEnding } from './translated-stream.js';
import { anthropicStopReason, anthropicUsage, THINKING_SIGNATURE } from './anthropic-message.js';
import { ToolCallTracker, type TrackedCall } from './tool-call-tracker.js';

const event = (name: string, data: string): string => `event: ${name}\ndata: ${data}\n\n`;

/** One per streamed request, driven by a `TranslatedStream`. */
export class AnthropicStreamWriter implements FaceStreamWriter {
  readonly #messageId: string;
  readonly #model: string;
  readonly #toolIdStem: string;
  #out = '';
  #nextBlock = 0;
  /** The open block's kind and index, or null. */
  #open: { kind: 'thinking' | 'text' | 'tool'; index: number } | null = null;
  #openTool: TrackedCall | null = null;
  readonly #tools: ToolCallTracker;
  #mintedIds = 0;
  #hasToolUse = false;

  constructor(messageId: string, model: string, toolIdStem: string) {
    this.#messageId = messageId;
    this.#model = model;
    this.#toolIdStem = toolIdStem;
    this.#tools = new ToolCallTracker(() => this.#mintId());
  }

  take(): string {
    const out = this.#out;
    this.#out = '';
    return out;
  }

  reasoning(text: string): void {
    if (this.#open?.kind !== 'thinking')
      this.#openBlock('thinking', '{"type":"thinking","thinking":"","signature":""}');
    this.#delta(`{"type":"thinking_delta","thinking":${JSON.stringify(text)}}`);
  }

  text(text: string): void {
    if (this.#open?.kind !== 'text') this.#openBlock('text', '{"type":"text","text":""}');
    this.#delta(`{"type":"text_delta","text":${JSON.stringify(text)}}`);
  }

  toolCall(index: number, id: string | null, name: string | null, args: string): void {
    const step = this.#tools.piece(index, id, name, args);
    if (!step) return;
    if (step.start) this.#startTool(step.call);
    if (step.args !== '' && this.#openTool === step.call) {
      this.#delta(`{"type":"input_json_delta","partial_json":${JSON.stringify(step.args)}}`);
    }
  }

  /** Ends the message: closes the open block, then `message_delta` and `message_stop`. */
  end(ending: StreamEnding): void {
    this.#closeBlock();
    const delta = { stop_reason: anthropicStopReason(ending.finish, this.#hasToolUse), stop_sequence: null };
    const usage = anthropicUsage(ending.usage);
    this.#out += event('message_delta', JSON.stringify({ type: 'message_delta', delta, usage }));
    this.#out += event('message_stop', '{"type":"message_stop"}');
  }

  open(): void {
    const message = {
      id: this.#messageId,
      type: 'message',
      role: 'assistant',
      model: this.#model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    this.#out += event('message_start', JSON.stringify({ type: 'message_start', message }));
  }

  #mintId(): string {
    this.#mintedIds += 1;
    return `toolu_${this.#toolIdStem}_${this.#mintedIds}`;
  }

  #startTool(tool: TrackedCall): void {
    this.#hasToolUse = true;
    this.#openBlock('tool', JSON.stringify({ type: 'tool_use', id: tool.id, name: tool.name, input: {} }));
    this.#openTool = tool;
  }

  #openBlock(kind: 'thinking' | 'text' | 'tool', contentBlock: string): number {
    this.#closeBlock();
    const index = this.#nextBlock;
    this.#nextBlock += 1;
    this.#open = { kind, index };
    this.#out += event(
      'content_block_start',
      `{"type":"content_block_start","index":${index},"content_block":${contentBlock}}`,
    );
    return index;
  }

  #delta(delta: string): void {
    const index = this.#open?.index ?? 0;
    this.#out += event(
      'content_block_delta',
      `{"type":"content_block_delta","index":${index},"delta":${delta}}`,
    );
  }

  #closeBlock(): void {
    const open = this.#open;
    if (!open) return;
    // Clients expect every thinking block to carry a signature; an upstream's reasoning has none of Anthropic's.
    if (open.kind === 'thinking')
      this.#delta(`{"type":"signature_delta","signature":${JSON.stringify(THINKING_SIGNATURE)}}`);
    this.#out += event('content_block_stop', `{"type":"content_block_stop","index":${open.index}}`);
    this.#open = null;
    this.#openTool = null;
  }
}
