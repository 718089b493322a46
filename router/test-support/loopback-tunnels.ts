/**
 * What the test proxies share: tunnels to 127.0.0.1 at the port a client asked for (whatever its host),
 * and a server on port 0 whose close ends its tunnels too (`server.close` waits for them otherwise).
 */
import type { AddressInfo, Server } from 'node:net';
import net from 'node:net';
import type { Duplex } from 'node:stream';

/** The sockets a test proxy holds open. */
export class OpenSockets {
  readonly #sockets = new Set<Duplex>();

  /** Holds `socket` until it closes. */
  track(socket: Duplex): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
  }

  destroyAll(): void {
    for (const socket of this.#sockets) socket.destroy();
  }
}

/**
 * Connects `client` to 127.0.0.1 at `port`: once connected, writes `reply` to it, then `head` (bytes the
 * client sent early) upstream, and pipes both ways; an error on either side ends the other.
 */
export function tunnel(client: Duplex, port: number, reply: string | Buffer, sockets: OpenSockets): void {
  const target = net.connect(port, '127.0.0.1', () => {
    client.write(reply);
    target.pipe(client);
    client.pipe(target);
  });
  sockets.track(target);
  target.on('error', () => client.destroy());
  client.on('error', () => target.destroy());
}

/** Listens with `server` on 127.0.0.1 port 0: its port, and a close that ends `sockets` first. */
export async function listenOnLoopback(
  server: Server,
  sockets: OpenSockets,
): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      sockets.destroyAll();
      server.close(() => resolve());
    });
  return { port: (server.address() as AddressInfo).port, close };
}
