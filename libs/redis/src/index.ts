import { BasicClientSideCache, createClient } from 'redis';
import { ApiError } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';

/**
 * Commands a client keeps waiting, to be sent or for their reply, before it refuses new ones at
 * once: a Redis that stops answering without the connection breaking fills this, not memory.
 */
const COMMANDS_QUEUE_MAX_LENGTH = 10_000;

function createRedisClient(url: string) {
  return createClient({ url, commandsQueueMaxLength: COMMANDS_QUEUE_MAX_LENGTH });
}

export type RedisClient = ReturnType<typeof createRedisClient>;

function onConnectionError(logger: Logger) {
  return (error: unknown) => logger.error({ err: error }, 'redis connection error');
}

/**
 * How a process starts with Redis: by default it waits until Redis answers (node-redis retries
 * until then, however long); `inBackground` returns at once and connects meanwhile, for a process
 * that serves without Redis while it is down (the gateway, decision 0043).
 */
export interface RedisConnection {
  inBackground?: boolean;
}

async function connect(client: { connect(): Promise<unknown> }, logger: Logger, { inBackground = false }: RedisConnection): Promise<void> {
  const connected = client.connect();
  if (inBackground) connected.catch(onConnectionError(logger));
  else await connected;
}

/** A client that logs (rather than throws) connection errors while it reconnects. */
export async function connectRedis(url: string, logger: Logger, connection: RedisConnection = {}): Promise<RedisClient> {
  const client = createRedisClient(url);
  client.on('error', onConnectionError(logger));
  await connect(client, logger, connection);
  return client;
}

function createCachingRedisClient(url: string, cache: BasicClientSideCache) {
  return createClient({ url, RESP: 3, clientSideCache: cache, commandsQueueMaxLength: COMMANDS_QUEUE_MAX_LENGTH });
}

export type CachingRedisClient = ReturnType<typeof createCachingRedisClient>;

/**
 * A client whose reads (GET) are answered from this process's memory after the first one: Redis
 * tracks what the client read and pushes an invalidation the moment any client changes or expires
 * one of those keys, before it acknowledges that write. A broken connection empties the cache, so
 * nothing stale outlives a missed invalidation. `cache.stats()` tells hits and misses.
 */
export async function connectCachingRedis(
  url: string,
  logger: Logger,
  maxEntries: number,
  connection: RedisConnection = {},
): Promise<{ client: CachingRedisClient; cache: BasicClientSideCache }> {
  const cache = new BasicClientSideCache({ maxEntries, evictPolicy: 'LRU' });
  const client = createCachingRedisClient(url, cache);
  client.on('error', onConnectionError(logger));
  await connect(client, logger, connection);
  return { client, cache };
}

/** Redis did not answer a command within the time its caller could wait. */
class RedisAnswerTimeout extends Error {
  constructor(readonly waitedMs: number) {
    super(`Redis did not answer within ${waitedMs} ms`);
  }
}

/**
 * The command's answer, or RedisAnswerTimeout once it took longer than `ms`. node-redis bounds
 * only a command's wait to be sent, not its wait for the reply, so a Redis that takes commands
 * and answers none (paused, or cut off without the connection breaking) would otherwise hold
 * its caller until the connection broke.
 *
 * The timeout is decided only after the I/O waiting when the time ran out has been read
 * (`setImmediate` runs after the event loop's poll phase): a process busy for longer than `ms`
 * (an on-sale rush) would otherwise take its own delay in reading a reply that had long arrived
 * for Redis's silence.
 */
export function answeredWithin<T>(command: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(new RedisAnswerTimeout(ms))), ms);
  });
  return Promise.race([command, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * How long a request waits for Redis where it cannot go on without its answer (in the gateway,
 * a key not in its cache or an Idempotency-Key; in identity, telling the gateways a key was
 * revoked): as long as node-redis lets a command wait to be sent. Redis answers in about a millisecond, but under an on-sale rush this process can take
 * seconds to get round to a reply; a shorter wait refused requests that would have succeeded.
 */
const REDIS_ANSWER_TIMEOUT_MS = 5_000;

/**
 * Redis's answer to a command a request cannot do without; when Redis fails or does not answer
 * in time, 503 `service_unavailable`, which the client retries, rather than a 500 or a request
 * held until Redis answers.
 */
export async function redisAnswer<T>(command: Promise<T>): Promise<T> {
  try {
    return await answeredWithin(command, REDIS_ANSWER_TIMEOUT_MS);
  } catch (error) {
    throw ApiError.serviceUnavailable(error);
  }
}
