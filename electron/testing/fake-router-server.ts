/** A real HTTP server that answers like an fcm-router daemon, for the attach tests. Test-only. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HistoryEntry, RouterEvent, StateResponse } from '../../router/api-types.js';

export interface FakeRouter {
  url: string;
  state: StateResponse;
  history: HistoryEntry[];
  token: string;
  /** Requests seen, as `METHOD path`. */
  seen: string[];
  push(event: RouterEvent): void;
  /** Drops every open event stream (as a restarting daemon would). */
  dropStreams(): void;
  streams(): number;
  close(): Promise<void>;
}

export async function startFakeRouter(state: StateResponse, port = 0): Promise<FakeRouter> {
  const streams = new Set<http.ServerResponse>();
  const fake: Omit<FakeRouter, 'url' | 'close'> = {
    state,
    history: [],
    token: 'tok-123',
    seen: [],
    push(event) {
      for (const res of streams) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    dropStreams() {
      for (const res of streams) res.destroy();
      streams.clear();
    },
    streams: () => streams.size,
  };
  const json = (res: http.ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    fake.seen.push(`${req.method} ${req.url}`);
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health')
      return json(res, 200, { ok: true, name: 'fcm-router', version: '0.1.0', uptimeMs: 1, pid: 1 });
    if (path === '/api/state') return json(res, 200, fake.state);
    if (path === '/api/history') return json(res, 200, { entries: fake.history, stats: {} });
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(`<!doctype html><meta name="fcm-token" content="${fake.token}"><div id="root"></div>`);
    }
    if (path === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': hello\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return undefined;
    }
    if (path === '/api/pause' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.headers['x-fcm-token'] !== fake.token || req.headers['content-type'] !== 'application/json') {
          return json(res, 403, { error: { message: 'forbidden', type: 'forbidden', code: null } });
        }
        const paused = (JSON.parse(body) as { paused: boolean }).paused;
        fake.state = { ...fake.state, paused };
        fake.push({ type: 'router', paused });
        return json(res, 200, { ok: true });
      });
      return undefined;
    }
    return json(res, 404, { error: { message: 'not found', type: 'not_found', code: null } });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        fake.dropStreams();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeRouter;
}
