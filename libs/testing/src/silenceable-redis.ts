import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SilenceableRedis {
  /** Where clients connect, as a Redis URL. */
  url: string;
  /** From now on Redis's answers are held back: connections stay open and commands still reach Redis. */
  silence(): void;
  /** Passes on what was held back, and everything after. */
  resume(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy to the Redis at `target` that can stop passing Redis's answers on, as a paused
 * Redis, or one cut off without the connection breaking, looks to its clients.
 */
export async function silenceableRedis(target = { host: '127.0.0.1', port: 6379 }): Promise<SilenceableRedis> {
  let silent = false;
  const held: Array<{ client: Socket; chunk: Buffer }> = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => (silent ? held.push({ client, chunk }) : client.write(chunk)));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    silence: () => {
      silent = true;
    },
    resume: () => {
      silent = false;
      for (const { client, chunk } of held.splice(0)) client.write(chunk);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
