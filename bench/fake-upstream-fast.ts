/**
 * The fast fake upstream of the benchmark: an OpenAI-compatible server on loopback that answers as cheaply as
 * it can, so what is measured is the path in front of it. The path picks the behaviour:
 *   /v1/chat/completions             a 1 KB completion, or 200 SSE chunks when the body says `"stream":true`
 *   /flaky/v1/chat/completions       an empty 200 (`choices: []`) when the body's `user` is `EMPTY_USER`
 *   /open-<ms>/v1/chat/completions   a stream that stays open for <ms>, one chunk a second
 *   /hang/v1/chat/completions        never answers (until the caller gives up)
 *   /slow-<ms>/v1/chat/completions   the 1 KB completion after <ms>, as a provider that takes its time
 * Run directly, it prints its URL and serves until SIGTERM.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { setImmediate as yieldTurn } from 'node:timers/promises';

/** SSE chunks per benchmark stream, the last one included (the finish frame and `[DONE]` come after). */
export const STREAM_CHUNKS = 200;
/**
 * The `user` of a request body the flaky path answers with an empty 200. A body field, since a router
 * forwards only a few client headers to a provider, and the body goes upstream as the agent sent it.
 */
export const EMPTY_USER = 'bench-empty';
const EMPTY_MARK = `"user":${JSON.stringify(EMPTY_USER)}`;
/** The word every content chunk carries. */
export const CHUNK_WORD = 'tok ';

const COMPLETION_TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(18).slice(0, 800);

function completionJson(text: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: 0,
      model: 'bench',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 8, completion_tokens: 180, total_tokens: 188 },
    }),
  );
}

/** The non-stream answer: about 1 KB of JSON. */
export const COMPLETION_BODY = completionJson(COMPLETION_TEXT);
const EMPTY_BODY = Buffer.from(
  JSON.stringify({ id: 'chatcmpl-empty', object: 'chat.completion', choices: [] }),
);

const chunkFrame = (delta: object, finish: string | null): Buffer =>
  Buffer.from(
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
  );
const FIRST_FRAME = chunkFrame({ role: 'assistant', content: CHUNK_WORD }, null);
const CONTENT_FRAME = chunkFrame({ content: CHUNK_WORD }, null);
const FINISH_FRAME = Buffer.concat([chunkFrame({}, 'stop'), Buffer.from('data: [DONE]\n\n')]);
const SSE_HEAD = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** The writes of one benchmark stream, in order: what a client of the upstream reads. */
export const streamWrites = (): Buffer[] => [
  FIRST_FRAME,
  ...Array.from({ length: STREAM_CHUNKS - 1 }, () => CONTENT_FRAME),
  FINISH_FRAME,
];
const JSON_HEAD = (length: number) => ({
  'content-type': 'application/json',
  'content-length': String(length),
});

/** Streams STREAM_CHUNKS frames, one per event-loop turn so each leaves as its own write. */
async function streamFrames(res: http.ServerResponse): Promise<void> {
  res.writeHead(200, SSE_HEAD);
  for (let i = 0; i < STREAM_CHUNKS; i += 1) {
    if (res.destroyed) return;
    res.write(i === 0 ? FIRST_FRAME : CONTENT_FRAME);
    await yieldTurn();
  }
  res.end(FINISH_FRAME);
}

/** A stream held open for `holdMs`: a content chunk at once, then one a second, then the finish. */
function holdOpen(res: http.ServerResponse, holdMs: number): void {
  res.writeHead(200, SSE_HEAD);
  res.write(FIRST_FRAME);
  const started = Date.now();
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    if (Date.now() - started >= holdMs) {
      clearInterval(timer);
      res.end(FINISH_FRAME);
      return;
    }
    res.write(CONTENT_FRAME);
  }, 1000);
  res.once('close', () => clearInterval(timer));
}

function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const url = req.url ?? '';
  const stream = body.includes('"stream":true');
  const open = /^\/open-(\d+)\//.exec(url);
  if (open?.[1]) return holdOpen(res, Number(open[1]));
  const slow = /^\/slow-(\d+)\//.exec(url);
  if (slow?.[1]) {
    const timer = setTimeout(
      () => res.writeHead(200, JSON_HEAD(COMPLETION_BODY.length)).end(COMPLETION_BODY),
      Number(slow[1]),
    );
    res.once('close', () => clearTimeout(timer));
    return;
  }
  // A model that hangs: the socket stays open, silent, until the router aborts.
  if (url.startsWith('/hang/')) return;
  if (url.startsWith('/flaky/') && body.includes(EMPTY_MARK)) {
    res.writeHead(200, JSON_HEAD(EMPTY_BODY.length));
    res.end(EMPTY_BODY);
    return;
  }
  if (stream) {
    void streamFrames(res);
    return;
  }
  res.writeHead(200, JSON_HEAD(COMPLETION_BODY.length));
  res.end(COMPLETION_BODY);
}

/** Starts the fake upstream on 127.0.0.1 (port 0 by default). */
export async function startFastUpstream(port = 0): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (body += part));
    req.on('end', () => handle(req, res, body));
  });
  // The burst holds 2 000 direct connections while the router's and the relay's pools keep theirs open, and
  // a backlog as large as the router's keeps SYN retries out of the direct figures it is compared with.
  server.maxConnections = 16_384;
  await new Promise<void>((resolve) => server.listen({ port, host: '127.0.0.1', backlog: 4096 }, resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url, server } = await startFastUpstream();
  process.stdout.write(`fake upstream listening on ${url}\n`);
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
  });
}
