import type { Logger } from '@ticketing/observability';

/**
 * Lets a slow start (a Kafka consumer joining its group, which after a crash waits out the dead
 * member's session for tens of seconds) go on while the service already serves; if it fails,
 * the process stops, as a failed start-up would.
 */
export function startInBackground<T>(what: string, starting: Promise<T>, logger: Logger): Promise<T> {
  starting.catch((error: unknown) => {
    logger.fatal({ err: error }, `${what} could not start`);
    process.exit(1);
  });
  return starting;
}
