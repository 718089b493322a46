/**
 * A small node:http client for tests: full control of headers (Host, Origin), one connection per request
 * (nothing left open after a test), and a streaming form that exposes when the response head arrives.
 */
import http from 'node:http';
import net from 'node:net';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const IDLE_TIMEOUT_MS = 30_000;

/** A reply whose body is still arriving. */
export interface OpenReply {
  request: ClientRequest;
  /** Resolves when the response head arrives. */
  response: Promise<IncomingMessage>;
}

/** Starts a request and returns at once; the caller reads the response as it arrives. */
export function openRequest(url: string, options: RequestOptions = {}): OpenReply {
  const request = http.request(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: options.headers,
    agent: false,
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  });
  // A router that goes silent fails the test rather than hanging the run.
  request.setTimeout(IDLE_TIMEOUT_MS, () => request.destroy(new Error(`no bytes for ${IDLE_TIMEOUT_MS} ms`)));
  // An unobserved rejection (a test that aborts on purpose) must not crash the runner.
  response.catch(() => undefined);
  request.end(options.body);
  return { request, response };
}

/** A reply read as it arrives: the test waits for a piece of it, not for a time. */
export interface ReadingReply {
  /** Resolves when the response head arrives. */
  response: Promise<IncomingMessage>;
  /** The body received so far, as UTF-8 text. */
  text(): string;
  /** Resolves once the body received so far includes `piece`; rejects if the reply ends without it. */
  received(piece: string): Promise<void>;
  /** The whole reply, once it ended. */
  done: Promise<HttpReply>;
}

/** Starts a request and reads its reply as it arrives (see {@link ReadingReply}). */
export function readingRequest(url: string, options: RequestOptions = {}): ReadingReply {
  const { response } = openRequest(url, options);
  let text = '';
  const waiters = new Set<{ piece: string; resolve: () => void; reject: (error: Error) => void }>();
  const done = response.then(
    (res) =>
      new Promise<HttpReply>((resolve, reject) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          for (const waiter of waiters)
            if (text.includes(waiter.piece)) {
              waiters.delete(waiter);
              waiter.resolve();
            }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      }),
  );
  void done.then(
    () => waiters.forEach((waiter) => waiter.reject(new Error(`the reply ended without "${waiter.piece}"`))),
    (error: Error) => waiters.forEach((waiter) => waiter.reject(error)),
  );
  return {
    response,
    text: () => text,
    received: (piece) =>
      text.includes(piece)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => waiters.add({ piece, resolve, reject })),
    done,
  };
}

/** Reads a response body to the end as UTF-8 text. */
export async function readText(res: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of res as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

/** Sends a request and reads the whole reply. */
export async function httpRequest(url: string, options: RequestOptions = {}): Promise<HttpReply> {
  const res = await openRequest(url, options).response;
  const text = await readText(res);
  return { status: res.statusCode ?? 0, headers: res.headers, text };
}

/** Parses a reply body as JSON of an expected shape (tests assert on the fields they read). */
export function parseReply<T>(reply: HttpReply): T {
  return JSON.parse(reply.text) as T;
}

/** The `data:` payloads of an SSE body, `[DONE]` kept as the string. */
export function sseData(text: string): unknown[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));
}

/** The concatenated `delta.content` of an SSE body. */
export function sseText(text: string): string {
  return sseData(text)
    .map((frame) => {
      if (typeof frame !== 'object' || frame === null) return '';
      const choices = (frame as { choices?: { delta?: { content?: unknown } }[] }).choices;
      const content = choices?.[0]?.delta?.content;
      return typeof content === 'string' ? content : '';
    })
    .join('');
}

/** POSTs `body` with node's client and reports the status it read and every socket error it saw. */
export function postRecording(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  chunked: boolean,
  method = 'POST',
): Promise<{ status: number | null; errors: string[] }> {
  return new Promise((resolve) => {
    const errors: string[] = [];
    let status: number | null = null;
    const req = http.request(url, {
      method,
      agent: false,
      headers: chunked ? headers : { ...headers, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      status = res.statusCode ?? null;
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    // Settled once the socket is gone, so an EPIPE after the answer is seen too.
    req.on('close', () => setImmediate(() => resolve({ status, errors })));
    if (chunked) {
      for (let offset = 0; offset < body.length; offset += 64 * 1024)
        req.write(body.subarray(offset, offset + 64 * 1024));
      req.end();
    } else req.end(body);
  });
}

/** A raw connection to a server: what it sent once it closed, and the socket to write more on. */
export interface RawExchange {
  closed: Promise<string>;
  socket: net.Socket;
}

/** Opens a raw connection to `url`'s host, sends `head` and resolves with everything received once it closes. */
export function rawExchange(url: string, head: string): RawExchange {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  socket.write(head);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { closed, socket };
}
