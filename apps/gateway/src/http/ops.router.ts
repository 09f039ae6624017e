import { Router } from 'express';
import type { RedisClient } from '@ticketing/redis';
import type { HttpMetrics } from './http-metrics';

/** Outside /v1, for Kubernetes and Prometheus: `/metrics` and `/readyz` (Redis reachable). */
export function opsRouter(redis: RedisClient, metrics: HttpMetrics): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  router.get('/readyz', async (_req, res) => {
    // A client that is reconnecting would queue the PING instead of failing it.
    const ready = redis.isReady && (await redis.ping().catch(() => undefined)) === 'PONG';
    res.status(ready ? 200 : 503).type('text').send(ready ? 'ready' : 'not ready');
  });
  return router;
}
