/**
 * The faces' stream workloads: the same 200-chunk upstream stream reached through the router's three faces
 * (chat completions, Anthropic Messages, OpenAI Responses). Chat completions passes the upstream's lines
 * through; the other two parse each chunk and write it in their own events, so the difference is the cost
 * of translating a stream. The single-client workload interleaves the faces stream by stream in the same
 * rotating order as the relay comparison; the 64-client one gives one face's chunks per second.
 */
import type { Pool } from 'undici';
import { closedLoop, type StreamReply } from '../load-client.js';
import { elapsedMs } from '../stats.js';
import { turnOrder, type StreamSamples } from './interleaved.js';
import { rateOfStreams, type StreamRateSample } from './throughput.js';

export type FaceName = 'chat' | 'messages' | 'responses';
export const FACE_NAMES: readonly FaceName[] = ['chat', 'messages', 'responses'];

/** One face's streamed request: where it goes, its body, and the event only a complete stream carries. */
export interface FaceStream {
  path: string;
  body: string;
  end: Buffer;
}

const PROMPT = 'Say something about foxes.';

/** The streamed request of `face` for `model`, as an agent on that face would send it. */
export function faceStream(face: FaceName, model: string): FaceStream {
  if (face === 'messages') {
    const body = { model, max_tokens: 1024, stream: true, messages: [{ role: 'user', content: PROMPT }] };
    return { path: '/v1/messages', body: JSON.stringify(body), end: Buffer.from('"type":"message_stop"') };
  }
  if (face === 'responses') {
    const body = { model, stream: true, input: PROMPT };
    return {
      path: '/v1/responses',
      body: JSON.stringify(body),
      end: Buffer.from('"type":"response.completed"'),
    };
  }
  const body = { model, stream: true, messages: [{ role: 'user', content: PROMPT }] };
  return { path: '/v1/chat/completions', body: JSON.stringify(body), end: Buffer.from('data: [DONE]') };
}

const HEADERS = { 'content-type': 'application/json' };

/**
 * One face stream read to the end; `ok` means 200 and the face's end event came. The end event is looked
 * for in every chunk (a Responses stream ends with a large object, so it is not in the last bytes), the same
 * way for every face.
 */
export async function timedFaceStream(pool: Pool, stream: FaceStream): Promise<StreamReply> {
  const start = process.hrtime.bigint();
  let ttfbMs = Number.NaN;
  let bytes = 0;
  let ended = false;
  // The last bytes seen, so an end event split across two chunks is still found.
  let tail: Buffer = Buffer.alloc(0);
  try {
    const res = await pool.request({
      path: stream.path,
      method: 'POST',
      headers: HEADERS,
      body: stream.body,
    });
    for await (const chunk of res.body) {
      if (bytes === 0) ttfbMs = elapsedMs(start);
      bytes += (chunk as Buffer).length;
      if (ended) continue;
      const seen = Buffer.concat([tail, chunk as Buffer]);
      ended = seen.includes(stream.end);
      tail = seen.subarray(-64);
    }
    return {
      ok: res.statusCode === 200 && ended,
      ttfbMs,
      totalMs: elapsedMs(start),
      bytes,
      headers: res.headers,
    };
  } catch {
    return { ok: false, ttfbMs, totalMs: elapsedMs(start), bytes, headers: {} };
  }
}

/**
 * `n` streams per face through the router, interleaved stream by stream in a rotating order (see
 * `turnOrder`), after a short warm-up: each face's TTFB and total time.
 */
export async function measureFaceStreamsInterleaved(
  pool: Pool,
  model: string,
  n: number,
): Promise<Record<FaceName, StreamSamples>> {
  const streams = FACE_NAMES.map((face) => faceStream(face, model));
  const indices = FACE_NAMES.map((_, i) => i);
  const out = {} as Record<FaceName, StreamSamples>;
  for (const face of FACE_NAMES) out[face] = { ttfbs: [], totals: [], errors: 0 };
  for (let i = 0; i < 5; i += 1) {
    for (const stream of streams) await timedFaceStream(pool, stream);
  }
  for (let i = 0; i < n; i += 1) {
    for (const f of turnOrder(indices, i)) {
      const reply = await timedFaceStream(pool, streams[f] as FaceStream);
      const mine = out[FACE_NAMES[f] as FaceName];
      if (!reply.ok) mine.errors += 1;
      mine.ttfbs.push(reply.ttfbMs);
      mine.totals.push(reply.totalMs);
    }
  }
  return out;
}

/** Upstream chunks per second delivered through `face` to `concurrency` streaming clients over `durationMs`. */
export async function measureFaceStreamThroughput(
  pool: Pool,
  model: string,
  face: FaceName,
  concurrency: number,
  durationMs: number,
): Promise<StreamRateSample> {
  const stream = faceStream(face, model);
  const warm = await closedLoop(concurrency, 200, async () => (await timedFaceStream(pool, stream)).ok);
  const run = await closedLoop(concurrency, durationMs, async () => (await timedFaceStream(pool, stream)).ok);
  return rateOfStreams(run, warm);
}
