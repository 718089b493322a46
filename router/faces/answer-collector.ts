/**
 * A whole chat completion gathered into the parts a face's JSON answer is built from. Tool calls are keyed
 * by their index, so a call split over several pieces (or a completion that repeats an index) stays one call.
 */
import { parseJson, isRecord } from '../gate/safe-json.js';
import { readCompletion, type ChatUsage, type DeltaSink } from './chat-deltas.js';

export interface CollectedToolCall {
  /** The upstream's id, or null when it gave none (the face mints one). */
  id: string | null;
  name: string;
  arguments: string;
}

export interface CollectedAnswer {
  /** The upstream's `model`, when it named one. */
  upstreamModel: string | null;
  reasoning: string;
  text: string;
  toolCalls: CollectedToolCall[];
  finishReason: string | null;
  /** The stop string that ended the answer, where the upstream named it. */
  matchedStop: string | null;
  usage: ChatUsage | null;
}

class Collector implements DeltaSink {
  reasoningText = '';
  textParts = '';
  readonly calls = new Map<number, CollectedToolCall>();
  finishReason: string | null = null;
  matchedStop: string | null = null;
  usageRead: ChatUsage | null = null;

  reasoning(text: string): void {
    this.reasoningText += text;
  }

  text(text: string): void {
    this.textParts += text;
  }

  toolCall(index: number, id: string | null, name: string | null, args: string): void {
    const call = this.calls.get(index);
    if (!call) {
      this.calls.set(index, { id, name: name ?? '', arguments: args });
      return;
    }
    call.id ??= id;
    if (name && !call.name) call.name = name;
    call.arguments += args;
  }

  finish(reason: string, matchedStop: string | null): void {
    this.finishReason = reason;
    this.matchedStop = matchedStop;
  }

  usage(usage: ChatUsage): void {
    this.usageRead = usage;
  }
}

/** Reads a served chat completion, as the gate parsed it. */
export function collectCompletion(completion: Record<string, unknown>): CollectedAnswer {
  const collector = new Collector();
  readCompletion(completion, collector);
  return {
    upstreamModel: typeof completion.model === 'string' ? completion.model : null,
    reasoning: collector.reasoningText,
    text: collector.textParts,
    toolCalls: [...collector.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call),
    finishReason: collector.finishReason,
    matchedStop: collector.matchedStop,
    usage: collector.usageRead,
  };
}

/** Parsed tool arguments as an object: `{}` for empty, non-JSON or non-object arguments. */
export function argumentsObject(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  const parsed = parseJson(args);
  return parsed.ok && isRecord(parsed.value) ? parsed.value : {};
}
