/**
 * A request body still arriving at its deadline: answered 408 on the socket, in the error shape of the
 * protocol its path speaks, and the connection cut so the rest of the body is never read.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Answer, type AnswerTarget } from '../engine/answer/answer.js';
import { clientError } from '../engine/answer/final-answer.js';
import type { AnswerEncoder, ErrorAnswer } from '../faces/answer-encoder.js';
import type { AgentFaces } from './agent-routes.js';
import { requestIdOf } from './face-route.js';

/** Claude Code's token count: no face of its own, though its errors speak Anthropic's Messages protocol. */
const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** The error a body cut at its deadline is answered with. */
export function lateBodyError(deadlineMs: number): ErrorAnswer {
  const message = `fcm-router: the request body did not arrive within ${deadlineMs} ms (router.server.requestBodyTimeoutMs)`;
  return clientError(408, 'request_timeout', message);
}

/**
 * The encoder a late body's 408 is written with: that of the face the path names (Claude Code's token
 * count speaks the Messages face's), or null off the agents' paths (the dashboard's API: OpenAI's shape).
 */
export function lateBodyEncoder(faces: AgentFaces, pathname: string): AnswerEncoder | null {
  const face = faces.get(pathname === COUNT_TOKENS_PATH ? '/v1/messages' : pathname);
  return face === undefined ? null : face.encoder(null);
}

/**
 * An answer written straight on the socket: the response object may still be waiting on the body (Node
 * writes its own deadlines' answers the same way). Only a whole answer (head, then one body) is taken.
 */
class SocketTarget implements AnswerTarget {
  headersSent = false;
  writableEnded = false;
  #head = '';

  constructor(private readonly socket: Socket) {}

  get destroyed(): boolean {
    return !this.socket.writable;
  }

  writeHead(status: number, headers: Record<string, string>): void {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    this.#head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n`;
    this.headersSent = true;
  }

  write(): boolean {
    throw new Error('a late body’s answer is written whole');
  }

  end(chunk?: Uint8Array | string): void {
    this.writableEnded = true;
    this.socket.write(chunk === undefined ? this.#head : this.#head + String(chunk));
  }

  once(): void {}

  off(): void {}
}

/**
 * A body still arriving at the request's deadline: 408 when nothing was answered yet, with `encoder` (the
 * face's error shape and the decision headers, under the request id its record gets), else OpenAI's error
 * shape; the connection is cut either way.
 */
export function cutLateBody(
  req: IncomingMessage,
  res: ServerResponse,
  late: { deadlineMs: number; encoder: AnswerEncoder | null },
): void {
  const socket = req.socket;
  if (!res.headersSent && socket.writable) {
    const error = lateBodyError(late.deadlineMs);
    const target = new SocketTarget(socket);
    const closing = { connection: 'close' };
    if (late.encoder !== null)
      new Answer(target, late.encoder, requestIdOf(req)).refuse(error, 'rejected', closing);
    else writePlainError(target, error, closing);
  }
  socket.destroy();
}

/** OpenAI's error shape, without a face's decision headers. */
function writePlainError(target: AnswerTarget, error: ErrorAnswer, headers: Record<string, string>): void {
  const body = JSON.stringify({
    error: { message: error.message, type: error.type, code: error.code, param: null },
  });
  target.writeHead(error.status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  });
  target.end(body);
}
