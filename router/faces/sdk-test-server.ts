/**
 * A small local HTTP server for the SDK tests of the faces: it translates each request with the face's
 * translation, answers it from a fixed upstream script (chosen by the `x-scenario` header) through the
 * face's encoder — stream pieces as separate writes — so the official SDKs parse the encoders' output.
 * A test of the encoders, not a router.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnswerEncoder } from './answer-encoder.js';
import type { ErrorAnswer } from './answer-encoder.js';
import type { ChatRequest } from './chat-request.js';
import { MessagesEncoder } from './anthropic-encoder.js';
import { translateMessagesRequest } from './anthropic-request.js';
import { ResponsesEncoder } from './responses-encoder.js';
import { translateResponsesRequest } from './responses-request.js';
import type { ToolNames } from './responses-tools.js';
import { chunk, completion, DONE, gated, runStream, toolPiece, usageChunk } from './test-kit.js';

/** What the fake upstream does for one request: a stream script, a completion, or an error before any byte. */
interface Upstream {
  pieces: string[];
  completion?: string;
  /** The stream breaks after the pieces. */
  breaks?: boolean;
  error?: ErrorAnswer;
}

type Scenario = (chat: ChatRequest) => Upstream;

const lastMessage = (chat: ChatRequest): ChatRequest['messages'][number] | undefined => chat.messages.at(-1);

const scenarios: Record<string, Scenario> = {
  text: () => ({
    pieces: [
      chunk({ role: 'assistant', content: 'Hello' }),
      chunk({ content: ' there' }, 'stop') + usageChunk(12, 3) + DONE,
    ],
    completion: completion({ content: 'Hello there' }, 'stop', { prompt_tokens: 12, completion_tokens: 3 }),
  }),
  reasoning: () => ({
    pieces: [
      chunk({ reasoning_content: 'Only ' }),
      chunk({ reasoning_content: 'thinking' }, 'length') + DONE,
    ],
    completion: completion({ reasoning_content: 'Only thinking' }, 'length'),
  }),
  // A shell tool round: asks for a command (no upstream id), then answers with what the tool result said.
  tool: (chat) => {
    const last = lastMessage(chat);
    if (last?.role === 'tool') {
      const text = `It printed ${last.content} (for ${last.tool_call_id})`;
      return { pieces: [chunk({ content: text }, 'stop') + DONE], completion: completion({ content: text }) };
    }
    const name = chat.tools?.[0]?.function.name ?? 'missing';
    return {
      pieces: [
        chunk({ content: 'Running it.' }),
        chunk({ tool_calls: [toolPiece(0, null, name, '{"cmd":')] }),
        chunk({ tool_calls: [toolPiece(0, null, null, '"echo hi"}')] }, 'tool_calls') + DONE,
      ],
      completion: completion(
        {
          content: 'Running it.',
          tool_calls: [{ type: 'function', function: { name, arguments: '{"cmd":"echo hi"}' } }],
        },
        'tool_calls',
      ),
    };
  },
  broken: () => ({ pieces: [chunk({ content: 'Partial' })], breaks: true }),
  limited: () => ({
    pieces: [],
    error: {
      status: 429,
      code: 'rate_limit_exceeded',
      type: 'rate_limit_error',
      message: 'fcm-router: every model of the set is quota-paused; retry later',
      retryAfterSec: 60,
    },
  }),
};

function send(res: http.ServerResponse, encoder: AnswerEncoder, upstream: Upstream, stream: boolean): void {
  if (upstream.error) {
    res.writeHead(upstream.error.status, {
      'content-type': 'application/json',
      'retry-after': String(upstream.error.retryAfterSec),
    });
    res.end(encoder.error(upstream.error));
    return;
  }
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(encoder.json(gated(upstream.completion ?? '')));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(runStream(encoder, upstream.pieces, !upstream.breaks));
  res.end(upstream.breaks ? encoder.streamFailure('mid_stream_error', 'up/model') : '');
}

/** Starts the server on a free port: its base URL and a way to stop it. */
export async function startFaceServer(): Promise<{ url: string; close: () => Promise<void> }> {
  let requestNumber = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      const scenario = scenarios[String(req.headers['x-scenario'])];
      const requestId = `req${(requestNumber += 1)}`;
      const path = (req.url ?? '').split('?')[0];
      const translated =
        path === '/v1/messages' ? translateMessagesRequest(body) : translateResponsesRequest(body);
      if (!scenario || !translated.ok) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: translated.ok ? 'no scenario' : translated.message } }));
        return;
      }
      const encoder: AnswerEncoder =
        path === '/v1/messages'
          ? new MessagesEncoder({
              idStem: requestId,
              model: translated.model,
              thinking: 'thinking' in translated ? translated.thinking : 'off',
              stopSequences: 'stopSequences' in translated ? translated.stopSequences : [],
            })
          : new ResponsesEncoder({
              idStem: requestId,
              model: translated.model,
              createdAt: 1_800_000_000,
              toolNames: 'toolNames' in translated ? (translated.toolNames as ToolNames) : new Map(),
            });
      send(res, encoder, scenario(translated.chat), translated.stream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
