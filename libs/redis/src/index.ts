import { createClient } from 'redis';
import type { Logger } from '@ticketing/observability';

function createRedisClient(url: string) {
  return createClient({ url });
}

export type RedisClient = ReturnType<typeof createRedisClient>;

/** A connected client that logs (rather than throws) connection errors while it reconnects. */
export async function connectRedis(url: string, logger: Logger): Promise<RedisClient> {
  const client = createRedisClient(url);
  client.on('error', (error: unknown) => logger.error({ err: error }, 'redis connection error'));
  await client.connect();
  return client;
}
