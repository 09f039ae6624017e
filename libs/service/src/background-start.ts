import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, type Backoff } from '@ticketing/backoff';
import type { Logger } from '@ticketing/observability';

/** Pauses between failed attempts to start: doubling from 1 s up to 30 s. */
const START_RETRY: Backoff = { initialMs: 1_000, maxMs: 30_000 };

/** A part of the service started in the background. */
export interface BackgroundStart {
  /** Stops trying to start it; if it has started (or is starting and then does), stops it. */
  stop(): Promise<void>;
}

/**
 * Starts a part the service can serve without (a Kafka consumer, the outbox relay) while the
 * service already serves: a broker that is down when the service starts, or a consumer group
 * that first waits out a dead member's session, delays only that part. A failed start is
 * logged and tried again, with pauses doubling up to 30 s, until it starts or the service stops;
 * the service keeps serving meanwhile, and what the part would have done waits (messages in
 * their topic, committed outbox rows in the database).
 */
export function startInBackground<T>(what: string, start: () => Promise<T>, stopStarted: (started: T) => Promise<unknown>, logger: Logger, retry: Backoff = START_RETRY): BackgroundStart {
  const stopping = new AbortController();
  const starting = (async (): Promise<{ started: T } | null> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const started = await start();
        if (attempt > 1) logger.info({ attempts: attempt }, `${what} started`);
        return { started };
      } catch (error) {
        if (stopping.signal.aborted) return null;
        const retryInMs = backoffDelay(attempt, retry);
        logger.error({ err: error, attempts: attempt, retry_in_ms: retryInMs }, `${what} could not start; the service serves without it and tries again`);
        const stopped = await sleep(retryInMs, false, { signal: stopping.signal }).catch(() => true);
        if (stopped) return null;
      }
    }
  })();
  return {
    stop: async () => {
      stopping.abort();
      const outcome = await starting;
      if (outcome) await stopStarted(outcome.started);
    },
  };
}
