/**
 * What a fake upstream does with one call: answer well, fail in one of the ways free providers fail (empty
 * 200s, error payloads, HTML, 429s, broken or silent streams, hangs, resets), or wait for the test first.
 * Nothing here waits on the wall clock: a slow upstream is one held by a gate the test opens, after it moved
 * the router's clock.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { completion, contentFrame, errorFrame, roleFrame } from './upstream-frames.js';

/** One request that reached the fake upstream. */
export interface UpstreamCall {
  /** `provider/model`, from the path prefix and the body's `model`. */
  key: string;
  provider: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed body, or null when it was not a JSON object. */
  body: Record<string, unknown> | null;
  /** Resolves when the response closed, whether it finished or the router went away. */
  closed: Promise<void>;
  /** True once the connection closed before the answer was complete (the router went away or reset it). */
  closedEarly: boolean;
}

export type Behaviour = (res: ServerResponse, call: UpstreamCall) => Promise<void> | void;

/** Any JSON body with a status and headers. */
export function jsonBody(body: unknown, status = 200, headers: Record<string, string> = {}): Behaviour {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** 200 with a real answer. */
export const json = (content: string): Behaviour => jsonBody(completion(content));
/** 200 with `choices: []`. */
export const empty200 = (): Behaviour => jsonBody({ id: 'x', object: 'chat.completion', choices: [] });
/** 200 whose first choice has only whitespace. */
export const blankContent = (): Behaviour => jsonBody(completion('   '));
/** 200 with an `error` object and no choices. */
export const errorPayload = (message = 'model is overloaded, try later'): Behaviour =>
  jsonBody({ error: { message, type: 'server_error', code: 'upstream_failure' } });
/** 200 with a body that is not JSON. */
export const invalidJson = (): Behaviour => jsonBody('{"choices": [', 200);
/** 200 with a maintenance page. */
export const html = (): Behaviour => (res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><html><body>Down for maintenance</body></html>');
};

/** A non-2xx answer with an OpenAI-style error body. */
export function status(
  code: number,
  options: { retryAfter?: string; body?: unknown; headers?: Record<string, string> } = {},
): Behaviour {
  const headers: Record<string, string> = { ...options.headers };
  if (options.retryAfter !== undefined) headers['retry-after'] = options.retryAfter;
  const body = options.body ?? { error: { message: `fake status ${code}`, type: 'fake', code } };
  return jsonBody(body, code, headers);
}

/**
 * An SSE frame: an object is sent as `data: <json>`, a string as it is; a promise pauses the stream until it
 * resolves; a function is called once every frame before it has left for the socket (a mark the test can
 * await).
 */
export type Frame = Record<string, unknown> | string | Promise<void> | (() => void);

/** Writes one SSE frame (an object becomes `data: <json>`); resolves once it left for the socket. */
function writeFrame(
  res: ServerResponse,
  call: UpstreamCall,
  frame: Record<string, unknown> | string,
): Promise<void> {
  const written = new Promise<void>((resolve) => {
    res.write(typeof frame === 'string' ? frame : `data: ${JSON.stringify(frame)}\n\n`, () => resolve());
  });
  return Promise.race([written, call.closed]);
}

function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

/**
 * A 200 SSE stream of `frames` (see {@link Frame}), then `[DONE]` unless `done: false`. With `then` set, the
 * stream does not end but continues with that behaviour's ending (`'stall'` or `'reset'`, once every frame
 * left for the socket).
 */
export function sse(
  frames: readonly Frame[],
  options: { done?: boolean; then?: 'stall' | 'reset' } = {},
): Behaviour {
  return async (res, call) => {
    sseHead(res);
    for (const frame of frames) {
      if (frame instanceof Promise) await Promise.race([frame, call.closed]);
      else if (typeof frame === 'function') frame();
      else await writeFrame(res, call, frame);
      if (call.closedEarly) return;
    }
    if (options.then === 'stall') return call.closed;
    if (options.then === 'reset') {
      res.socket?.destroy();
      return;
    }
    if (options.done !== false) res.write('data: [DONE]\n\n');
    res.end();
  };
}

/** Serves streamed requests with `stream` and JSON ones with `json` (a model that fails both ways alike). */
export const byStreaming =
  (stream: Behaviour, json: Behaviour): Behaviour =>
  (res, call) =>
    call.body?.stream === true ? stream(res, call) : json(res, call);

/** A good stream of the given text pieces, ending with `[DONE]`. */
export const sseContent = (pieces: readonly string[]): Behaviour =>
  sse([roleFrame(), ...pieces.map(contentFrame)]);
/** An error frame before any content. */
export const sseErrorFirst = (): Behaviour => sse([roleFrame(), errorFrame()], { done: false });
/** Content, then an upstream error frame. */
export const sseErrorAfterContent = (pieces: readonly string[] = ['partial ']): Behaviour =>
  sse([...pieces.map(contentFrame), errorFrame()], { done: false });
/** A stream with nothing in it but a role frame and `[DONE]`. */
export const emptyStream = (): Behaviour => sse([roleFrame()]);
/** `n` content frames (none when 0, only a role frame), then silence until the router gives up. */
export const stallAfter = (n: number): Behaviour =>
  sse([roleFrame(), ...Array.from({ length: n }, (_, i) => contentFrame(`piece${i} `))], { then: 'stall' });

/** A 200 JSON head and the start of a body, then silence (a body that never finishes). */
export const partialBody = (): Behaviour => async (res, call) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"choices": [');
  await call.closed;
};

/** Never answers; resolves once the router closes the connection. */
export const hang = (): Behaviour => (_res, call) => call.closed;

/** Destroys the socket without answering. */
export const reset = (): Behaviour => (res) => {
  res.socket?.destroy();
};

/** Runs `behaviour` once the test opens `gate`; nothing if the router left first. */
export function after(gate: Promise<void>, behaviour: Behaviour): Behaviour {
  return async (res, call) => {
    await Promise.race([gate, call.closed]);
    if (call.closedEarly) return;
    await behaviour(res, call);
  };
}
