/**
 * The benchmark's load client: undici pools and the cheapest possible request loops, so the client does
 * not dominate what it measures.
 */
import { Pool } from 'undici';
import { elapsedMs } from './stats.js';

export type TargetName = 'direct' | 'relay' | 'router';

export interface Target {
  name: TargetName;
  pool: Pool;
  /** The `model` the body names (an upstream id, or `fcm:<set>` for the router). */
  model: string;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Opens a keep-alive pool to `origin`. */
export function openPool(origin: string, connections: number): Pool {
  return new Pool(origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 120_000,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
}

/** A minimal chat body, with `extra` fields if given. */
export function chatBody(model: string, stream: boolean, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    model,
    stream,
    messages: [{ role: 'user', content: 'Say something about foxes.' }],
    ...extra,
  });
}

export interface Reply {
  ok: boolean;
  status: number;
  ms: number;
  headers: Record<string, string | string[] | undefined>;
}

/** The path every agent request of the benchmark takes, unless a workload names another. */
export const CHAT_PATH = '/v1/chat/completions';

/** One non-stream request to `path`, body read to the end; `ok` means 200 with a body. */
export async function timedRequest(
  pool: Pool,
  body: string,
  headers: Record<string, string> = {},
  path = CHAT_PATH,
): Promise<Reply> {
  const start = process.hrtime.bigint();
  try {
    const res = await pool.request({
      path,
      method: 'POST',
      headers: { ...JSON_HEADERS, ...headers },
      body,
    });
    let bytes = 0;
    for await (const chunk of res.body) bytes += (chunk as Buffer).length;
    return {
      ok: res.statusCode === 200 && bytes > 0,
      status: res.statusCode,
      ms: elapsedMs(start),
      headers: res.headers,
    };
  } catch {
    return { ok: false, status: 0, ms: elapsedMs(start), headers: {} };
  }
}

export interface StreamReply {
  ok: boolean;
  /** Request start to the first body byte. */
  ttfbMs: number;
  totalMs: number;
  bytes: number;
  headers: Record<string, string | string[] | undefined>;
}

const DONE = Buffer.from('data: [DONE]');

/** One stream request read to the end; `ok` means 200 and the stream ended with `[DONE]`. */
export async function timedStream(pool: Pool, body: string, path = CHAT_PATH): Promise<StreamReply> {
  const start = process.hrtime.bigint();
  let ttfbMs = Number.NaN;
  let bytes = 0;
  // The last bytes seen, across chunk borders, to find the closing `[DONE]`.
  let tail: Buffer = Buffer.alloc(0);
  try {
    const res = await pool.request({ path, method: 'POST', headers: JSON_HEADERS, body });
    for await (const chunk of res.body) {
      if (bytes === 0) ttfbMs = elapsedMs(start);
      bytes += (chunk as Buffer).length;
      tail = Buffer.concat([tail, chunk as Buffer]).subarray(-64);
    }
    const ok = res.statusCode === 200 && tail.includes(DONE);
    return { ok, ttfbMs, totalMs: elapsedMs(start), bytes, headers: res.headers };
  } catch {
    return { ok: false, ttfbMs, totalMs: elapsedMs(start), bytes, headers: {} };
  }
}

/** What a closed loop did: tasks completed and failed, in `ms`. */
export interface LoopResult {
  done: number;
  failed: number;
  ms: number;
}

/** Runs `task` from `concurrency` workers until `durationMs` has passed; returns completed and failed counts. */
export async function closedLoop(
  concurrency: number,
  durationMs: number,
  task: () => Promise<boolean>,
): Promise<LoopResult> {
  const start = process.hrtime.bigint();
  let done = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    while (elapsedMs(start) < durationMs) {
      if (await task()) done += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { done, failed, ms: elapsedMs(start) };
}
