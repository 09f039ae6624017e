import { z } from 'zod';
import { DEFAULT_PORTS, grpcAddress, grpcDeadlineMs, internalTokenSecret, loadConfig, logLevel, port, redisUrl } from '@ticketing/config';

const requestsAllowed = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

/**
 * Express's `trust proxy`: which proxies' X-Forwarded-For names the client, whose address the
 * per-client limits count. `false` (the socket's peer), `true`, a hop count, or addresses/CIDRs
 * and Express's names (`loopback`, `uniquelocal`, …) separated by commas.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((value): boolean | number | string => {
    if (value === 'true' || value === 'false') return value === 'true';
    return /^\d+$/.test(value) ? Number(value) : value;
  });

const gatewayEnv = z.object({
  PORT: port(DEFAULT_PORTS.gateway.http),
  /** `/metrics`, `/healthz` and `/readyz`, kept off the public API port. */
  OPS_PORT: port(DEFAULT_PORTS.gateway.ops),
  REDIS_URL: redisUrl,
  IDENTITY_GRPC_URL: grpcAddress('identity'),
  CATALOG_GRPC_URL: grpcAddress('catalog'),
  TICKETING_GRPC_URL: grpcAddress('ticketing'),
  PAYMENTS_GRPC_URL: grpcAddress('payments'),
  WEBHOOKS_GRPC_URL: grpcAddress('webhooks'),
  /** Ticketing's page server: the gateway forwards ticket pages (/d/…) there (decision 0035). */
  TICKETING_PAGES_URL: z.string().url().default(`http://127.0.0.1:${DEFAULT_PORTS.ticketing.pages}`),
  /** Payments' page server: the gateway forwards the sandbox's authentication pages (/sandbox/…) there (decision 0061). */
  PAYMENTS_PAGES_URL: z.string().url().default(`http://127.0.0.1:${DEFAULT_PORTS.payments.pages}`),
  INTERNAL_TOKEN_SECRET: internalTokenSecret,
  /** How long one gRPC call may take before the request fails with 503. */
  GRPC_DEADLINE_MS: grpcDeadlineMs,
  LOG_LEVEL: logLevel,
  TRUST_PROXY: trustProxy,
  // Rate limits, counted in Redis across replicas (docs/decisions/0021).
  /** Per account and mode; an account's own rate_limit_per_second (set by an operator) wins. */
  RATE_LIMIT_PER_SECOND: requestsAllowed(100),
  /** Door scanning (scanning:write operations), per account and mode, apart from the budget above. */
  RATE_LIMIT_SCANNING_PER_SECOND: requestsAllowed(200),
  /** POST /v1/account/keys, per account (both modes). */
  RATE_LIMIT_KEY_MINTING_PER_MINUTE: requestsAllowed(30),
  /** Public routes (health, OpenAPI document, docs), per client address. */
  RATE_LIMIT_PUBLIC_PER_SECOND: requestsAllowed(20),
  /** Requests with an invalid API key, per client address; past it the address gets 429 until the minute ends. */
  RATE_LIMIT_FAILED_AUTH_PER_MINUTE: requestsAllowed(10),
});

export type GatewayConfig = z.infer<typeof gatewayEnv>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(gatewayEnv, env);
}
