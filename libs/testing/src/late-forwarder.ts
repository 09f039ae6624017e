import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface LateForwarder {
  /** The local port: connections to it are refused until `open`. */
  port: number;
  /** From now on, forwards every connection to the port to the target. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A local port nothing listens on yet, as a server that is down looks to its clients, which
 * `open` turns into a TCP forwarder to `target`: the server coming back, at the same address.
 */
export async function lateForwarder(target: { host: string; port: number }): Promise<LateForwarder> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  let forwarder: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    port,
    open: async () => {
      forwarder = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => forwarder!.listen(port, '127.0.0.1', resolve));
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      if (forwarder) await new Promise((resolve) => forwarder!.close(resolve));
    },
  };
}
