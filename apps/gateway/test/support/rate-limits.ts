import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@ticketing/redis';
import type { GatewayDeps } from '../../src/app';
import { loadGatewayConfig } from '../../src/config';
import { rateLimitSettings, type Budget, type Bucket } from '../../src/rate-limit/budgets';

/**
 * The default limits (or the given ones), counted under a Redis prefix of their own: gateways
 * made with the same result share counts, as replicas do; other test runs and a running system
 * on this machine never touch them.
 */
export function isolatedRateLimits(redis: RedisClient, budgets: Partial<Record<Bucket, Budget>> = {}): GatewayDeps['rateLimits'] {
  const defaults = rateLimitSettings(loadGatewayConfig({}));
  return { redis, settings: { budgets: { ...defaults.budgets, ...budgets }, redisPrefix: `ratelimit-test:${randomUUID()}` } };
}
