/**
 * The translating relay: a plain proxy that serves an Anthropic Messages stream from a chat-completions
 * upstream, the straightforward way. `POST /v1/messages` is sent on as a streamed chat completion (the
 * agent's body forwarded, model renamed); its body is read with undici's async iterator, each chunk's lines
 * found on bytes, each data frame's JSON parsed once and its first choice's text written as a
 * `content_block_delta` (one write per upstream chunk), between the opening and closing events Anthropic's
 * SDKs expect. Any other path is piped through untouched, as the bare relay does. No checking, routing,
 * trace or bookkeeping: beside the bare relay it shows what translating a stream costs a proxy that does
 * nothing else. Run as `translating-relay.ts <upstream-url> <model>`: it prints its URL and serves until
 * SIGTERM.
 */
import type http from 'node:http';
import type { Pool } from 'undici';
import { runRelayScript, serveRelay, type RelayHandle } from './bare-relay.js';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };
const JSON_HEADERS = { 'content-type': 'application/json' };

const event = (name: string, data: string): string => `event: ${name}\ndata: ${data}\n\n`;
const OPENING =
  event(
    'message_start',
    '{"type":"message_start","message":{"id":"msg_relay","type":"message","role":"assistant","model":"relay","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}}',
  ) +
  event(
    'content_block_start',
    '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  );
const DELTA_HEAD =
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":';
const DELTA_END = '}}\n\n';
const CLOSING =
  event('content_block_stop', '{"type":"content_block_stop","index":0}') +
  event(
    'message_delta',
    '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":0}}',
  ) +
  event('message_stop', '{"type":"message_stop"}');

/** The text of a chat-completions chunk's first choice, or '' when it has none (or is no JSON). */
function deltaText(data: string): string {
  let frame: unknown;
  try {
    frame = JSON.parse(data);
  } catch {
    return '';
  }
  const choice: unknown = (frame as { choices?: unknown[] } | null)?.choices?.[0];
  const content: unknown = (choice as { delta?: { content?: unknown } } | undefined)?.delta?.content;
  return typeof content === 'string' ? content : '';
}

const LF = 0x0a;
const DATA = Buffer.from('data:');

/**
 * One stream's translation: `chunk` takes upstream bytes as they come and returns the events their whole
 * lines make (lines are found on bytes and decoded one by one: a line end never falls inside a UTF-8
 * character); a line split across chunks waits for its end. `[DONE]` (or the end of the body) closes the
 * message.
 */
export class MessagesTranslation {
  #rest: Buffer | null = null;
  #closed = false;

  /** The opening events (on the `first` chunk), then the deltas of every whole data line in `bytes`. */
  chunk(bytes: Buffer, first: boolean): string {
    let out = first ? OPENING : '';
    const buf = this.#rest === null ? bytes : Buffer.concat([this.#rest, bytes]);
    this.#rest = null;
    let start = 0;
    for (let end = buf.indexOf(LF); end !== -1; start = end + 1, end = buf.indexOf(LF, start)) {
      if (this.#closed || !buf.subarray(start, start + DATA.length).equals(DATA)) continue;
      const data = buf.toString('utf8', start + DATA.length, end).trim();
      if (data === '[DONE]') {
        out += CLOSING;
        this.#closed = true;
        continue;
      }
      const text = deltaText(data);
      if (text !== '') out += DELTA_HEAD + JSON.stringify(text) + DELTA_END;
    }
    if (start < buf.length) this.#rest = Buffer.from(buf.subarray(start));
    return out;
  }

  /** What is left to write when the upstream's body ends. */
  end(): string {
    if (this.#closed) return '';
    this.#closed = true;
    return CLOSING;
  }
}

async function translate(pool: Pool, model: string, req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  const answer = await pool.request({
    path: '/v1/chat/completions',
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ ...body, model, stream: true }),
  });
  if (answer.statusCode !== 200) {
    await answer.body.dump();
    return res.writeHead(502).end();
  }
  res.writeHead(200, SSE_HEADERS);
  const translation = new MessagesTranslation();
  let first = true;
  for await (const chunk of answer.body) {
    const out = translation.chunk(chunk as Buffer, first);
    first = false;
    if (out !== '') res.write(out);
  }
  return res.end((first ? OPENING : '') + translation.end());
}

/** Starts a translating relay to `upstream` on 127.0.0.1 (port 0 by default), naming `model` upstream. */
export function startTranslatingRelay(upstream: string, model: string, port = 0): Promise<RelayHandle> {
  return serveRelay(upstream, port, (pool, req, res) => {
    if (req.url === '/v1/messages') return translate(pool, model, req, res);
    return pool.stream(
      { path: req.url ?? '/', method: 'POST', headers: JSON_HEADERS, body: req },
      (answer) => {
        res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? '') });
        return res;
      },
    );
  });
}

await runRelayScript(import.meta.url, ['upstream-url', 'model'], ([upstream = '', model = '']) =>
  startTranslatingRelay(upstream, model),
);
