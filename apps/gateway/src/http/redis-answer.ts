import { ApiError } from '@ticketing/errors';
import { answeredWithin } from '@ticketing/redis';

/**
 * How long a request waits for Redis where it cannot go on without its answer (a key not in
 * this process's cache, an Idempotency-Key): as long as node-redis lets a command wait to be
 * sent. Redis answers in about a millisecond, but under an on-sale rush this process can take
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
