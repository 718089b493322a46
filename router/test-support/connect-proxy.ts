/**
 * A forward proxy for tests, on 127.0.0.1 port 0: it answers `CONNECT host:port` by tunnelling to
 * 127.0.0.1 at that port, whatever the host, so a provider named by a host no resolver knows is reachable
 * through it alone. It records each tunnel's target and, given credentials, refuses (407) a tunnel without
 * them.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { listenOnLoopback, OpenSockets, tunnel } from './loopback-tunnels.js';

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The `host:port` of each tunnel opened, in order. */
  tunnels: string[];
  /** How many tunnels were refused for want of the credentials. */
  refused: number;
  close(): Promise<void>;
}

/** Starts a proxy; with `credentials` (`user:password`) it wants them as Basic `proxy-authorization`. */
export async function startConnectProxy(options: { credentials?: string } = {}): Promise<ConnectProxy> {
  const sockets = new OpenSockets();
  const wanted =
    options.credentials === undefined ? null : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  const proxy: ConnectProxy = { url: '', tunnels: [], refused: 0, close: async () => {} };
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.track(client);
    if (wanted !== null && req.headers['proxy-authorization'] !== wanted) {
      proxy.refused += 1;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const authority = req.url ?? '';
    proxy.tunnels.push(authority);
    if (head.length > 0) client.unshift(head);
    const port = Number(authority.slice(authority.lastIndexOf(':') + 1));
    tunnel(client, port, 'HTTP/1.1 200 Connection Established\r\n\r\n', sockets);
  });
  const listening = await listenOnLoopback(server, sockets);
  proxy.url = `http://127.0.0.1:${listening.port}`;
  proxy.close = listening.close;
  return proxy;
}
