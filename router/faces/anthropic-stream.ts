/**
 * The upstream's chat-completions stream as Anthropic Messages events, in the order the SDKs expect:
 * `message_start`, then per content block `content_block_start` / `content_block_delta`s /
 * `content_block_stop`, then `message_delta` (stop reason, usage) and `message_stop`. Blocks follow one
 * another (reasoning → `thinking`, text → `text`, each tool call → `tool_use`); a block closes when content
 * of another kind, or another tool call, begins. Reasoning is left out when the request did not turn thinking
 on, and the blocks that follow are numbered from 0 all the same. Each event's text is built once, as it is sent; a delta's
 * fixed text is built when its block opens, so a piece costs only its own JSON encoding.
 *
 * A tool call's pieces must come in order, as every OpenAI-compatible upstream sends them: a piece for a
 * call whose block has already closed (another call began in between) cannot be sent and is dropped.
 */
import type { FaceStreamWriter, StreamEnding } from './translated-stream.js';
import { anthropicStop, anthropicUsage, THINKING_SIGNATURE, type MessageFacts } from './anthropic-message.js';
import { ToolCallTracker, type TrackedCall } from './tool-call-tracker.js';

const event = (name: string, data: string): string => `event: ${name}\ndata: ${data}\n\n`;

type BlockKind = 'thinking' | 'text' | 'tool';

/** Each kind's `delta` object up to the value of its one string field. */
const DELTA_START: Record<BlockKind, string> = {
  thinking: '{"type":"thinking_delta","thinking":',
  text: '{"type":"text_delta","text":',
  tool: '{"type":"input_json_delta","partial_json":',
};
/** After a delta's JSON-encoded piece: the ends of the `delta` object, the data and the event. */
const DELTA_END = '}}\n\n';
const SIGNATURE_DELTA = `{"type":"signature_delta","signature":${JSON.stringify(THINKING_SIGNATURE)}`;

/** A `content_block_delta` event up to the piece it carries: the same text for every piece of a block. */
const deltaHead = (index: number, deltaStart: string): string =>
  `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":${deltaStart}`;

/** The open content block. */
interface OpenBlock {
  kind: BlockKind;
  index: number;
  /** Its delta events' text before the piece, built once when the block opens. */
  head: string;
  /** The tool call a `tool_use` block writes, else null. */
  call: TrackedCall | null;
}

/** One per streamed request, driven by a `TranslatedStream`. */
export class AnthropicStreamWriter implements FaceStreamWriter {
  readonly #facts: MessageFacts;
  #out = '';
  #nextBlock = 0;
  #open: OpenBlock | null = null;
  readonly #tools: ToolCallTracker;
  #mintedIds = 0;
  #hasToolUse = false;

  constructor(facts: MessageFacts) {
    this.#facts = facts;
    this.#tools = new ToolCallTracker(() => this.#mintId());
  }

  take(): string {
    const out = this.#out;
    this.#out = '';
    return out;
  }

  reasoning(text: string): void {
    const shown = this.#facts.thinking;
    if (shown === 'off') return;
    const open = this.#open;
    const block =
      open?.kind === 'thinking'
        ? open
        : this.#openBlock('thinking', '{"type":"thinking","thinking":"","signature":""}', null);
    if (shown === 'text') this.#out += block.head + JSON.stringify(text) + DELTA_END;
  }

  text(text: string): void {
    const open = this.#open;
    const block = open?.kind === 'text' ? open : this.#openBlock('text', '{"type":"text","text":""}', null);
    this.#out += block.head + JSON.stringify(text) + DELTA_END;
  }

  toolCall(index: number, id: string | null, name: string | null, args: string): void {
    const step = this.#tools.piece(index, id, name, args);
    if (!step) return;
    if (step.start) this.#startTool(step.call);
    const block = this.#open;
    if (step.args !== '' && block !== null && block.call === step.call)
      this.#out += block.head + JSON.stringify(step.args) + DELTA_END;
  }

  /** Ends the message: closes the open block, then `message_delta` and `message_stop`. */
  end(ending: StreamEnding): void {
    this.#closeBlock();
    const delta = anthropicStop(ending, this.#hasToolUse, this.#facts.stopSequences);
    const usage = anthropicUsage(ending.usage, this.#facts.inputTokens);
    this.#out += event('message_delta', JSON.stringify({ type: 'message_delta', delta, usage }));
    this.#out += event('message_stop', '{"type":"message_stop"}');
  }

  open(): void {
    const message = {
      id: this.#facts.messageId,
      type: 'message',
      role: 'assistant',
      model: this.#facts.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // The estimate: the upstream's count, if it gives one, comes only with the end.
      usage: { input_tokens: this.#facts.inputTokens, output_tokens: 0 },
    };
    this.#out += event('message_start', JSON.stringify({ type: 'message_start', message }));
  }

  #mintId(): string {
    this.#mintedIds += 1;
    return `toolu_${this.#facts.toolIdStem}_${this.#mintedIds}`;
  }

  #startTool(tool: TrackedCall): void {
    this.#hasToolUse = true;
    const contentBlock = JSON.stringify({ type: 'tool_use', id: tool.id, name: tool.name, input: {} });
    this.#openBlock('tool', contentBlock, tool);
  }

  #openBlock(kind: BlockKind, contentBlock: string, call: TrackedCall | null): OpenBlock {
    this.#closeBlock();
    const index = this.#nextBlock;
    this.#nextBlock += 1;
    const block = { kind, index, head: deltaHead(index, DELTA_START[kind]), call };
    this.#open = block;
    this.#out += event(
      'content_block_start',
      `{"type":"content_block_start","index":${index},"content_block":${contentBlock}}`,
    );
    return block;
  }

  #closeBlock(): void {
    const open = this.#open;
    if (!open) return;
    // Clients expect every thinking block to carry a signature; an upstream's reasoning has none of Anthropic's.
    if (open.kind === 'thinking') this.#out += deltaHead(open.index, SIGNATURE_DELTA) + DELTA_END;
    this.#out += event('content_block_stop', `{"type":"content_block_stop","index":${open.index}}`);
    this.#open = null;
  }
}
