/**
 * A SOCKS5 proxy for tests, on 127.0.0.1 port 0, without authentication: it answers a CONNECT to any host by
 * connecting to 127.0.0.1 at the asked port, so a provider named by a host no resolver knows is reachable
 * through it alone. It records each connection's target. With `refuse`, it accepts no method at all.
 */
import net from 'node:net';
import { listenOnLoopback, OpenSockets, tunnel } from './loopback-tunnels.js';

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

/** Starts a SOCKS5 proxy; with `refuse` it answers every greeting "no acceptable method" (0xFF). */
export async function startSocksProxy(options: { refuse?: boolean } = {}): Promise<SocksProxy> {
  const sockets = new OpenSockets();
  const proxy: SocksProxy = { url: '', connections: [], close: async () => {} };
  const server = net.createServer((client) => {
    sockets.track(client);
    client.on('error', () => client.destroy());
    client.once('data', () => {
      if (options.refuse === true) return void client.end(Buffer.from([5, 0xff]));
      client.write(Buffer.from([5, 0])); // version 5, no authentication
      client.once('data', (request) => {
        const target = connectTarget(request);
        if (target === null) return void client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
        proxy.connections.push(`${target.host}:${target.port}`);
        tunnel(client, target.port, Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]), sockets);
      });
    });
  });
  const listening = await listenOnLoopback(server, sockets);
  proxy.url = `socks5://127.0.0.1:${listening.port}`;
  proxy.close = listening.close;
  return proxy;
}
