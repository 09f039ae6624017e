import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import { answerClientError } from './client-errors';

/**
 * Connections the kernel may hold for the gateway before it accepts them (Node's default is
 * 511). An on-sale opens thousands at once; past the queue, the kernel drops them and clients
 * try again only a second or more later. The kernel caps it at net.core.somaxconn (4096 on
 * current Linux and in a Kubernetes pod).
 */
export const LISTEN_BACKLOG = 4096;

export function listen(app: Express, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(app);
    server.on('clientError', answerClientError);
    server.once('error', reject);
    server.listen({ port, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Stops accepting connections and waits for in-flight requests, then cuts whatever is left. */
export function closeGracefully(server: Server, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
