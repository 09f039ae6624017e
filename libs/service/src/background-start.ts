import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, type Backoff } from '@ticketing/backoff';
import type { Logger } from '@ticketing/observability';

/** Pauses between failed attempts to start: doubling from 1 s up to 30 s. */
const START_RETRY: Backoff = { initialMs: 1_000, maxMs: 30_000 };

export interface BackgroundStartOptions<T> {
  /**
   * Settles if the started part stops by itself while the service runs (a Kafka consumer its
   * client gave up on after an error it does not restart from). Omit it for a part that cannot.
   */
  stoppedByItself?: (started: T) => Promise<unknown>;
  retry?: Backoff;
}

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
 * their topic, committed outbox rows in the database). A part that later stops by itself is
 * stopped cleanly and started again the same way, so a consumer never stays dead in a process
 * that still reads as ready.
 */
export function startInBackground<T>(what: string, start: () => Promise<T>, stopStarted: (started: T) => Promise<unknown>, logger: Logger, options: BackgroundStartOptions<T> = {}): BackgroundStart {
  const retry = options.retry ?? START_RETRY;
  const stopping = new AbortController();
  const stopRequested = new Promise<void>((resolve) => stopping.signal.addEventListener('abort', () => resolve(), { once: true }));
  /** Waits `ms` unless the service stops first; answers whether it stopped. */
  const pauseUnlessStopped = (ms: number) => sleep(ms, false, { signal: stopping.signal }).catch(() => true);
  let running: T | null = null;

  const keepRunning = (async () => {
    // Failed starts and stops by itself in a row; a part that ran longer than the longest pause counts as healthy again.
    let failures = 0;
    for (;;) {
      let part: T;
      try {
        part = await start();
      } catch (error) {
        if (stopping.signal.aborted) return;
        failures += 1;
        const retryInMs = backoffDelay(failures, retry);
        logger.error({ err: error, attempts: failures, retry_in_ms: retryInMs }, `${what} could not start; the service serves without it and tries again`);
        if (await pauseUnlessStopped(retryInMs)) return;
        continue;
      }
      running = part;
      if (failures > 0) logger.info({ attempts: failures + 1 }, `${what} started`);
      if (stopping.signal.aborted || options.stoppedByItself === undefined) return;
      const startedAt = Date.now();
      // Stopped by itself whether its promise settles one way or the other.
      const stoppedByItself = options.stoppedByItself(part).then(
        (reason: unknown) => ({ reason }),
        (reason: unknown) => ({ reason }),
      );
      const cause = await Promise.race([stoppedByItself, stopRequested.then(() => null)]);
      if (cause === null) return;
      running = null;
      failures = Date.now() - startedAt > retry.maxMs ? 1 : failures + 1;
      const retryInMs = backoffDelay(failures, retry);
      logger.error({ err: cause.reason, retry_in_ms: retryInMs }, `${what} stopped by itself; the service serves without it and starts it again`);
      await stopStarted(part).catch((error: unknown) => logger.warn({ err: error }, `${what} did not stop cleanly`));
      if (await pauseUnlessStopped(retryInMs)) return;
    }
  })();

  return {
    stop: async () => {
      stopping.abort();
      await keepRunning;
      if (running !== null) await stopStarted(running);
    },
  };
}
