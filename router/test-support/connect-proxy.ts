/**
 * A forward proxy for tests, on 127.0.0.1 port 0: it answers `CONNECT host:port` by tunnelling to
 * 127.0.0.1 at that port, whatever the host, so a provider named by a host no resolver knows is reachable
 * through it alone. It records each tunnel's target and, given credentials, refuses (407) a tunnel without
 * them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Duplex } from 'node:stream';

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
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const wanted =
    options.credentials === undefined ? null : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  const proxy: ConnectProxy = { url: '', tunnels: [], refused: 0, close: async () => {} };
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    if (wanted !== null && req.headers['proxy-authorization'] !== wanted) {
      proxy.refused += 1;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const authority = req.url ?? '';
    proxy.tunnels.push(authority);
    const target = net.connect(Number(authority.slice(authority.lastIndexOf(':') + 1)), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    track(target);
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
