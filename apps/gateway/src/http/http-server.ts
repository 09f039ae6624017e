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
    // A request without a Host header reaches the app, which answers it with the error envelope (requireOneHost).
    const server = createServer({ requireHostHeader: false }, app);
    server.on('clientError', answerClientError);
    server.once('error', reject);
    server.listen({ port, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** How often a closing server closes the kept-alive connections that went idle since. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops accepting connections and waits for in-flight requests, then cuts whatever is left. A
 * client under steady load keeps its kept-alive connections busy, so they were never idle and the
 * server took new requests on them until the timeout cut them mid-flight (a crash-testing probe
 * saw 23 cut): now a request that arrives while closing is answered with `Connection: close`, and
 * connections are closed as soon as they go idle.
 */
export function closeGracefully(server: Server, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearTimeout(timer);
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}
