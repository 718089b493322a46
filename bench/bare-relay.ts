/**
 * The bare relay: the cheapest Node pass-through to one upstream (undici pool, bytes piped both ways, no
 * parsing). Whatever it costs over a direct call is the floor for any Node proxy, fcm-router included.
 * Run as `bare-relay.ts <upstream-url>`: it prints its URL and relays until SIGTERM.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'host',
  'upgrade',
  'proxy-connection',
]);

function forwardable(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** Starts a relay to `upstream` on 127.0.0.1 (port 0 by default). */
export function startBareRelay(upstream: string, port = 0): Promise<RelayHandle> {
  return serveRelay(upstream, port, (pool, req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    return pool.stream(
      {
        path: req.url ?? '/',
        method: (req.method ?? 'GET') as 'GET',
        headers: forwardable(req.headers),
        body: hasBody ? req : null,
      },
      ({ statusCode, headers }) => {
        res.writeHead(statusCode, forwardable(headers));
        return res;
      },
    );
  });
}

/** How a relay serves one request with its upstream `pool`; a rejection answers 502 (or cuts the stream). */
export type RelayWork = (pool: Pool, req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>;

/**
 * A relay to `upstream` doing `work` for every request. No cap on upstream sockets, as the router's pools
 * have none: a capped relay would queue a burst's requests behind a slow upstream and read slower than it is.
 */
export async function serveRelay(upstream: string, port: number, work: RelayWork): Promise<RelayHandle> {
  const pool = new Pool(upstream, { pipelining: 1, keepAliveTimeout: 60_000 });
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    work(pool, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
  });
  return listenRelay(server, pool, port);
}

/** A relay listening: its URL, and how to close it. */
export interface RelayHandle {
  url: string;
  close: () => Promise<void>;
}

/**
 * Listens with a relay's `server` on 127.0.0.1 with the router's connection cap and backlog, so the burst
 * compares them on the same footing; closing closes the server, then the relay's upstream `pool`.
 */
export async function listenRelay(server: http.Server, pool: Pool, port: number): Promise<RelayHandle> {
  server.maxConnections = 4096;
  await new Promise<void>((resolve) => server.listen({ port, host: '127.0.0.1', backlog: 4096 }, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.destroy();
    },
  };
}

/**
 * Runs a relay when `moduleUrl` is the script node was started with (`node <script> <params…>`): `start`
 * gets the params in order; the relay's URL is printed and it serves until SIGTERM.
 */
export async function runRelayScript(
  moduleUrl: string,
  params: readonly string[],
  start: (args: string[]) => Promise<RelayHandle>,
): Promise<void> {
  const script = process.argv[1];
  if (!script || moduleUrl !== pathToFileURL(script).href) return;
  const args = process.argv.slice(2, 2 + params.length);
  if (args.length < params.length || args.includes(''))
    throw new Error(`usage: ${script} ${params.map((param) => `<${param}>`).join(' ')}`);
  const relay = await start(args);
  process.stdout.write(`relay listening on ${relay.url}\n`);
  process.once('SIGTERM', () => void relay.close());
}

await runRelayScript(import.meta.url, ['upstream-url'], ([upstream = '']) => startBareRelay(upstream));
