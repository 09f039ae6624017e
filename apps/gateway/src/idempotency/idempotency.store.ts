import type { Mode } from '@ticketing/auth';
import { redisAnswer, type RedisClient } from '@ticketing/redis';

/** One Idempotency-Key of one account in one mode. */
export interface IdempotencyScope {
  accountId: string;
  mode: Mode;
  key: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
  /** The request that produced the response, for the replay's `Original-Request`. */
  requestId: string;
}

/**
 * What the gateway knows about a key. `outcome_unknown`: the request failed in a way that may
 * have come after the service committed (a timeout, a lost connection, any 5xx), so the next
 * attempt must go to the service, which answers from its own record if the write committed.
 */
export type IdempotencyRecord =
  | { state: 'in_flight'; fingerprint: string }
  | ({ state: 'completed'; fingerprint: string } & StoredResponse)
  | { state: 'outcome_unknown'; fingerprint: string };

/** How long a key's outcome is kept. */
const RETENTION_SECONDS = 24 * 60 * 60;

/**
 * How long an attempt's lock stands if its request never completes (the gateway died): twice the
 * deadline of the call the attempt makes, so a live attempt keeps it to its end, and a dead one
 * holds its key's retries off for seconds rather than a minute. Once it lapses, the retry goes to
 * the service, whose own record of the key (decisions 0025, 0041) answers for the first attempt.
 */
export function attemptLockSeconds(callDeadlineMs: number): number {
  return Math.ceil((2 * callDeadlineMs) / 1000);
}

/**
 * Idempotency records in Redis: a key's outcome (kept 24 h) and, apart from it, the lock of the
 * attempt running now, so a retry of an unknown outcome can take the lock while the outcome
 * keeps binding the key to its first request.
 */
export class IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly lockSeconds: number,
  ) {}

  /**
   * Takes the key for this attempt, or returns what stops it: a completed response to replay,
   * a record of another request, or an attempt still running. An unknown outcome of the same
   * request does not stop it.
   */
  async reserve(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyRecord | undefined> {
    const lock = this.lockEntry(scope);
    for (;;) {
      const [locked, stored] = await redisAnswer(
        this.redis
          .multi()
          .set(lock, fingerprint, { condition: 'NX', expiration: { type: 'EX', value: this.lockSeconds } })
          .get(this.outcomeEntry(scope))
          .exec(),
      );
      const outcome = typeof stored === 'string' ? (JSON.parse(stored) as IdempotencyRecord) : undefined;
      if (outcome && (outcome.state === 'completed' || outcome.fingerprint !== fingerprint)) {
        if (locked !== null) await redisAnswer(this.redis.del(lock));
        return outcome;
      }
      if (locked !== null) return undefined;
      const holder = await redisAnswer(this.redis.get(lock));
      // A lock released between the two commands is simply taken again.
      if (holder !== null) return { state: 'in_flight', fingerprint: holder };
    }
  }

  async complete(scope: IdempotencyScope, fingerprint: string, response: StoredResponse): Promise<void> {
    await this.settle(scope, { state: 'completed', fingerprint, ...response });
  }

  /** Keeps the key bound to its request, for a retry that the service will answer. */
  async markOutcomeUnknown(scope: IdempotencyScope, fingerprint: string): Promise<void> {
    await this.settle(scope, { state: 'outcome_unknown', fingerprint });
  }

  /** Frees the key without an outcome: the attempt was refused before it could change anything. */
  async release(scope: IdempotencyScope): Promise<void> {
    await redisAnswer(this.redis.del(this.lockEntry(scope)));
  }

  private async settle(scope: IdempotencyScope, record: IdempotencyRecord): Promise<void> {
    await redisAnswer(
      this.redis
        .multi()
        .set(this.outcomeEntry(scope), JSON.stringify(record), { expiration: { type: 'EX', value: RETENTION_SECONDS } })
        .del(this.lockEntry(scope))
        .exec(),
    );
  }

  private outcomeEntry(scope: IdempotencyScope): string {
    return `idempotency:${scope.mode}:${scope.accountId}:${scope.key}`;
  }

  private lockEntry(scope: IdempotencyScope): string {
    return `idempotency-lock:${scope.mode}:${scope.accountId}:${scope.key}`;
  }
}
