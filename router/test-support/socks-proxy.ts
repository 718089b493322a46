/**
 * A SOCKS5 proxy for tests, on 127.0.0.1 port 0, without authentication: it answers a CONNECT to any host by
 * connecting to 127.0.0.1 at the asked port, so a provider named by a host no resolver knows is reachable
 * through it alone. It records each connection's target.
 */
import type { AddressInfo } from 'node:net';
import net from 'node:net';

export interface SocksProxy {
  /** `socks5://127.0.0.1:<port>`. */
  url: string;
  /** The `host:port` of each connection made, in order. */
  connections: string[];
  close(): Promise<void>;
}

/** The target of a SOCKS5 CONNECT request (`05 01 00 atyp addr port`), or null when it is not one. */
function connectTarget(request: Buffer): { host: string; port: number } | null {
  if (request[0] !== 5 || request[1] !== 1) return null;
  const type = request[3];
  if (type === 3) {
    const length = request[4] ?? 0;
    return {
      host: request.subarray(5, 5 + length).toString('latin1'),
      port: request.readUInt16BE(5 + length),
    };
  }
  if (type === 1) return { host: [...request.subarray(4, 8)].join('.'), port: request.readUInt16BE(8) };
  return null;
}

/** Starts a SOCKS5 proxy. */
export async function startSocksProxy(): Promise<SocksProxy> {
  const sockets = new Set<net.Socket>();
  const proxy: SocksProxy = { url: '', connections: [], close: async () => {} };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    client.once('data', () => {
      client.write(Buffer.from([5, 0])); // version 5, no authentication
      client.once('data', (request) => {
        const target = connectTarget(request);
        if (target === null) return void client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
        proxy.connections.push(`${target.host}:${target.port}`);
        const upstream = net.connect(target.port, '127.0.0.1', () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          upstream.pipe(client);
          client.pipe(upstream);
        });
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', () => client.destroy());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
