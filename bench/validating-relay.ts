/**
 * The validating relay: the least a router that only lets real content through must do for a non-stream
 * chat completion, and nothing else. It reads the agent's body whole, parses it, names the upstream's model
 * in it and serialises it again, sends it on one undici pool, reads the answer whole, parses it and checks
 * that its first choice carries content or tool calls (502 when not), then answers with the upstream's
 * bytes. No routing, no trace, no headers of its own, no bookkeeping: what the router costs beyond it is its
 * own machinery. Run as `validating-relay.ts <upstream-url> <model>`: it prints its URL and serves until
 * SIGTERM.
 */
import type http from 'node:http';
import type { Pool } from 'undici';
import { runRelayScript, serveRelay, type RelayHandle } from './bare-relay.js';

const JSON_TYPE = 'application/json';

/** True when `text` parses to an answer whose first choice has content or tool calls. */
export function hasRealContent(text: string): boolean {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof answer !== 'object' || answer === null || !('choices' in answer)) return false;
  const { choices } = answer;
  if (!Array.isArray(choices)) return false;
  const message: unknown = (choices[0] as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'object' || message === null) return false;
  const { content, tool_calls: calls } = message as { content?: unknown; tool_calls?: unknown };
  return (typeof content === 'string' && content !== '') || (Array.isArray(calls) && calls.length > 0);
}

/** The agent's body with `model` renamed, or null when it is no JSON object. */
function renamed(bytes: Buffer, model: string): Buffer | null {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  return Buffer.from(JSON.stringify({ ...body, model }));
}

async function relay(pool: Pool, model: string, req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = renamed(Buffer.concat(chunks), model);
  if (body === null) return res.writeHead(400).end();
  const answer = await pool.request({
    path: req.url ?? '/',
    method: 'POST',
    headers: { 'content-type': JSON_TYPE },
    body,
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  if (answer.statusCode !== 200 || !hasRealContent(bytes.toString('utf8'))) return res.writeHead(502).end();
  return res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': bytes.length }).end(bytes);
}

/** Starts a validating relay to `upstream` on 127.0.0.1 (port 0 by default), naming `model` upstream. */
export function startValidatingRelay(upstream: string, model: string, port = 0): Promise<RelayHandle> {
  return serveRelay(upstream, port, (pool, req, res) => relay(pool, model, req, res));
}

await runRelayScript(import.meta.url, ['upstream-url', 'model'], ([upstream = '', model = '']) =>
  startValidatingRelay(upstream, model),
);
