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
export async function startBareRelay(upstream: string, port = 0): Promise<RelayHandle> {
  // No cap on upstream sockets, as the router's pools have none: a capped relay would queue a burst's
  // requests behind a slow upstream and read slower than it is.
  const pool = new Pool(upstream, { pipelining: 1, keepAliveTimeout: 60_000 });
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    pool
      .stream(
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
      )
      .catch(() => {
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const upstream = process.argv[2];
  if (!upstream) throw new Error('usage: bare-relay.ts <upstream-url>');
  const relay = await startBareRelay(upstream);
  process.stdout.write(`bare relay listening on ${relay.url}\n`);
  process.once('SIGTERM', () => void relay.close());
}
