import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, register } from 'prom-client';

export interface OpsServerOptions {
  port: number;
  /** Ready to take traffic: dependencies reachable. Liveness is simply "the process answers". */
  isReady: () => Promise<boolean>;
}

let defaultMetricsStarted = false;

/** `/metrics` (Prometheus text), `/healthz` and `/readyz` for Kubernetes probes. */
export async function startOpsServer(options: OpsServerOptions): Promise<Server> {
  if (!defaultMetricsStarted) {
    collectDefaultMetrics();
    defaultMetricsStarted = true;
  }
  const server = createServer((request, response) => {
    const reply = (status: number, body: string, contentType = 'text/plain') => {
      response.writeHead(status, { 'content-type': contentType }).end(body);
    };
    switch (request.url) {
      case '/metrics':
        register.metrics().then((text) => reply(200, text, register.contentType), () => reply(500, 'metrics unavailable'));
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
