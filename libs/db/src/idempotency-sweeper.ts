import type { Logger } from '@ticketing/observability';
import type { RawSqlClient } from './idempotency-records';
import { startPeriodicSweep, sweepInBatches, type PeriodicSweep } from './periodic-sweep';

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
export function sweepIdempotencyRecords(db: RawSqlClient, olderThan: Date): Promise<number> {
  return sweepInBatches(
    SWEEP_BATCH,
    () => db.$executeRaw`
      DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < ${olderThan} LIMIT ${SWEEP_BATCH})`,
  );
}

/**
 * Sweeps expired idempotency records at start and then every hour. Replicas may sweep at the
 * same time: a row is deleted once, by whoever gets to it.
 */
export function startIdempotencySweeper(
  db: RawSqlClient,
  logger: Logger,
  { retentionMs = IDEMPOTENCY_RECORD_RETENTION_MS, intervalMs = SWEEP_INTERVAL_MS }: { retentionMs?: number; intervalMs?: number } = {},
): PeriodicSweep {
  return startPeriodicSweep({
    what: 'expired idempotency records',
    intervalMs,
    sweep: () => sweepIdempotencyRecords(db, new Date(Date.now() - retentionMs)),
    logger,
  });
}
