import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, register, type Registry } from 'prom-client';

/** The registry every ops server exposes at /metrics: the process's metrics belong here. */
export const processMetrics: Registry = register;

export interface OpsServerOptions {
  port: number;
  /** Ready to take traffic: dependencies reachable. Liveness is simply "the process answers". */
  isReady: () => Promise<boolean>;
}

let defaultMetricsStarted = false;

/** `/metrics` (Prometheus text), `/healthz` and `/readyz` for Kubernetes probes. */
export async function startOpsServer(options: OpsServerOptions): Promise<Server> {
  if (!defaultMetricsStarted) {
    collectDefaultMetrics({ register: processMetrics });
    defaultMetricsStarted = true;
  }
  const server = createServer((request, response) => {
    const reply = (status: number, body: string, contentType = 'text/plain') => {
      response.writeHead(status, { 'content-type': contentType }).end(body);
    };
    switch (request.url) {
      case '/metrics':
        processMetrics.metrics().then((text) => reply(200, text, processMetrics.contentType), () => reply(500, 'metrics unavailable'));
        return;
      case '/healthz':
        reply(200, 'ok');
        return;
      case '/readyz':
        options.isReady().then(
          (ready) => reply(ready ? 200 : 503, ready ? 'ready' : 'not ready'),
          () => reply(503, 'not ready'),
        );
        return;
      default:
        reply(404, 'not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '0.0.0.0', resolve);
  });
  return server;
}
