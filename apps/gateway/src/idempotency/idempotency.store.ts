import type { Mode } from '@ticketing/auth';
import type { RedisClient } from '@ticketing/redis';

/** One Idempotency-Key of one account in one mode. */
export interface IdempotencyScope {
  accountId: string;
  mode: Mode;
  key: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type IdempotencyRecord = { state: 'in_flight'; fingerprint: string } | ({ state: 'completed'; fingerprint: string } & StoredResponse);

export interface IdempotencyTimings {
  /** How long a reservation holds if its request never completes (e.g. the process died). */
  inFlightSeconds: number;
  retentionSeconds: number;
}

const DEFAULT_TIMINGS: IdempotencyTimings = { inFlightSeconds: 60, retentionSeconds: 24 * 60 * 60 };

/** Idempotency records in Redis: reserved on first arrival, then completed or released. */
export class IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly timings: IdempotencyTimings = DEFAULT_TIMINGS,
  ) {}

  /** Reserves the key for this request, or returns the record already there. */
  async reserve(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyRecord | undefined> {
    const entry = this.entry(scope);
    const inFlight: IdempotencyRecord = { state: 'in_flight', fingerprint };
    for (;;) {
      const reserved = await this.redis.set(entry, JSON.stringify(inFlight), { condition: 'NX', expiration: { type: 'EX', value: this.timings.inFlightSeconds } });
      if (reserved !== null) return undefined;
      const existing = await this.redis.get(entry);
      // An entry that expired between the two commands is simply reserved again.
      if (existing !== null) return JSON.parse(existing) as IdempotencyRecord;
    }
  }

  async complete(scope: IdempotencyScope, fingerprint: string, response: StoredResponse): Promise<void> {
    const record: IdempotencyRecord = { state: 'completed', fingerprint, ...response };
    await this.redis.set(this.entry(scope), JSON.stringify(record), { expiration: { type: 'EX', value: this.timings.retentionSeconds } });
  }

  /** Frees the key so a retry runs the request again (after a failure on our side). */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.redis.del(this.entry(scope));
  }

  private entry(scope: IdempotencyScope): string {
    return `idempotency:${scope.mode}:${scope.accountId}:${scope.key}`;
  }
}
