import { createLogger } from '@ticketing/observability';
import { connectRedis, type RedisClient } from '@ticketing/redis';
import { CatalogReadGenerations } from '../../src/reads/read-generations';

/**
 * Catalog's read generations on the real Redis, as catalog runs them, for the calling test file:
 * connected before its tests, closed after them. Read the fields inside hooks and tests.
 */
export function useReadGenerations(): { readonly generations: CatalogReadGenerations; readonly redis: RedisClient } {
  let redis: RedisClient;
  let generations: CatalogReadGenerations;
  beforeAll(async () => {
    const logger = createLogger('catalog-test', 'silent');
    redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', logger);
    generations = new CatalogReadGenerations(redis, logger);
  });
  afterAll(async () => {
    generations.stop();
    await redis.close();
  });
  return {
    get generations() {
      return generations;
    },
    get redis() {
      return redis;
    },
  };
}
