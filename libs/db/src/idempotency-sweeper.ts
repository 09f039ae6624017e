import type { Logger } from '@ticketing/observability';
import type { RawSqlClient } from './idempotent-writes';

/**
 * How long a service keeps the record of an idempotent write: a week, well past the gateway's
 * 24 hours, so a client retrying late still gets the committed result (decision 0025).
 */
export const IDEMPOTENCY_RECORD_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 1_000;

/**
 * Deletes the `idempotency_keys` records created before `olderThan`, a thousand at a time so no
 * statement holds many row locks for long. Returns how many it deleted.
 */
export async function sweepIdempotencyRecords(db: RawSqlClient, olderThan: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await db.$executeRaw`
      DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < ${olderThan} LIMIT ${SWEEP_BATCH})`;
    deleted += batch;
    if (batch < SWEEP_BATCH) return deleted;
  }
}

export interface IdempotencySweeper {
  /** Stops sweeping, after the sweep under way (if any) ends. */
  stop(): Promise<void>;
}

/**
 * Sweeps expired idempotency records at start and then every hour. Replicas may sweep at the
 * same time: a row is deleted once whoever gets to it. A failed sweep is logged and retried at
 * the next one.
 */
export function startIdempotencySweeper(
  db: RawSqlClient,
  logger: Logger,
  { retentionMs = IDEMPOTENCY_RECORD_RETENTION_MS, intervalMs = SWEEP_INTERVAL_MS }: { retentionMs?: number; intervalMs?: number } = {},
): IdempotencySweeper {
  let running: Promise<void> | undefined;
  const sweep = () => {
    running ??= sweepIdempotencyRecords(db, new Date(Date.now() - retentionMs))
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, 'expired idempotency records deleted');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'idempotency record sweep failed; the next one will retry'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  sweep();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
