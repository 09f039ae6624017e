import express, { type Express } from 'express';
import { Registry } from 'prom-client';
import type { CallerOptions } from '@ticketing/grpc';
import type { Logger } from '@ticketing/observability';
import type { CachingRedisClient, RedisClient } from '@ticketing/redis';
import { KeyVerifier } from './auth/key-verifier';
import type { GatewayConfig } from './config';
import type { BackendClients } from './grpc/service-calls';
import { accessLog } from './http/access-log.middleware';
import { errorHandler, routeNotFound } from './http/error-handler.middleware';
import { requireOneHost } from './http/host-header.middleware';
import { HttpMetrics } from './http/http-metrics';
import { refuseMalformedUrl } from './http/malformed-url.middleware';
import { assignRequestId } from './http/request-id.middleware';
import { attemptLockSeconds, IdempotencyStore } from './idempotency/idempotency.store';
import { buildApiReference, DOCS_PATH } from './openapi/api-reference';
import type { RateLimitSettings } from './rate-limit/budgets';
import { LimiterMetrics } from './rate-limit/limiter-metrics';
import { CatalogReadCache } from './reads/catalog-read-cache';
import { RateLimits } from './rate-limit/rate-limits';
import { routeTable } from './routes';
import { methodNotAllowed, routeTableRouter } from './routes/route-table.router';
import { forwardPages, pageRefused, SANDBOX_PAGE_PATH, TICKET_PAGE_PATH } from './http/pages.proxy';

export interface GatewayDeps {
  redis: RedisClient;
  /** Reads API-key cache entries and catalog read generations, answering repeats from memory (connectCachingRedis). */
  keyCacheRedis: CachingRedisClient;
  clients: BackendClients;
  config: Pick<GatewayConfig, 'INTERNAL_TOKEN_SECRET' | 'GRPC_DEADLINE_MS' | 'TRUST_PROXY' | 'TICKETING_PAGES_URL' | 'PAYMENTS_PAGES_URL'>;
  /** The limits and the Redis that counts them: `redis` itself in production. */
  rateLimits: { settings: RateLimitSettings; redis: RedisClient };
  logger: Logger;
  /**
   * Where request and rate-limit metrics go; main passes the registry its ops server exposes.
   * Each app gets a private one otherwise, so several can run in one process (tests).
   */
  metricsRegistry?: Registry;
}

/** The whole public HTTP surface as an Express app, so tests and benchmarks can run it in-process. */
export function createGatewayApp({ redis, keyCacheRedis, clients, config, rateLimits, logger, metricsRegistry = new Registry() }: GatewayDeps): Express {
  const caller: CallerOptions = { tokenSecret: config.INTERNAL_TOKEN_SECRET, deadlineMs: config.GRPC_DEADLINE_MS };
  const metrics = new HttpMetrics(metricsRegistry);
  const reference = buildApiReference(routeTable);

  const app = express();
  app.disable('x-powered-by');
  // Responses are per caller and rarely repeat: hashing each body for an ETag would buy nothing.
  app.disable('etag');
  // Decides req.ip, the address that per-client rate limits count.
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(assignRequestId);
  app.use(accessLog(logger, metrics));
  app.use(requireOneHost);
  const limits = new RateLimits(rateLimits.redis, rateLimits.settings, new LimiterMetrics(metricsRegistry, logger));
  // A holder's link goes to ticketing as it came: a link a mail client mangled gets ticketing's
  // page saying the link is not valid, never the API's JSON refusal of a malformed URL.
  app.use(TICKET_PAGE_PATH, limits.perClient, forwardPages(TICKET_PAGE_PATH, config.TICKETING_PAGES_URL, 'ticketing', logger), pageRefused);
  app.use(SANDBOX_PAGE_PATH, limits.perClient, forwardPages(SANDBOX_PAGE_PATH, config.PAYMENTS_PAGES_URL, 'payments', logger), pageRefused);
  app.use(refuseMalformedUrl((req, res) => limits.countPerClient(req, res)));
  // OPTIONS (the route table answers it with the methods a path allows) counts as any request no operation serves.
  app.use((req, res, next) => (req.method === 'OPTIONS' ? limits.perClient(req, res, next) : next()));
  app.use(DOCS_PATH, limits.perClient, reference.explorerAssets);
  app.use(
    routeTableRouter(routeTable, {
      verifier: new KeyVerifier(keyCacheRedis, clients.identity, caller),
      idempotencyStore: new IdempotencyStore(redis, attemptLockSeconds(config.GRPC_DEADLINE_MS)),
      rateLimits: limits,
      clients,
      caller,
      catalogReads: new CatalogReadCache(keyCacheRedis, metricsRegistry),
      reference,
      logger,
    }),
  );
  app.use(limits.perClient, methodNotAllowed(routeTable), routeNotFound);
  app.use(errorHandler(logger));
  return app;
}
