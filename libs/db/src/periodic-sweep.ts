import type { Logger } from '@ticketing/observability';

/**
 * Runs `sweepBatch` (one statement clearing at most `batchSize` rows, so none holds many row
 * locks for long) until a batch comes back short. Returns how many rows it cleared in all.
 */
export async function sweepInBatches(batchSize: number, sweepBatch: () => Promise<number>): Promise<number> {
  let cleared = 0;
  for (;;) {
    const batch = await sweepBatch();
    cleared += batch;
    if (batch < batchSize) return cleared;
  }
}

export interface PeriodicSweep {
  /** Stops sweeping, after the sweep under way (if any) ends. */
  stop(): Promise<void>;
}

export interface PeriodicSweepOptions {
  /** What is swept, for the logs: "expired idempotency records". */
  what: string;
  intervalMs: number;
  /** One sweep; resolves to how many rows it cleared. */
  sweep: () => Promise<number>;
  logger: Logger;
}

/**
 * Runs a database sweep at start and then every `intervalMs`, never two at once in this process
 * (replicas may sweep at the same time; each sweep must be safe for that). A failed sweep is
 * logged and tried again at the next interval.
 */
export function startPeriodicSweep({ what, intervalMs, sweep, logger }: PeriodicSweepOptions): PeriodicSweep {
  let running: Promise<void> | undefined;
  const runOnce = () => {
    running ??= sweep()
      .then((cleared) => {
        if (cleared > 0) logger.info({ cleared }, `${what} swept`);
      })
      .catch((error: unknown) => logger.warn({ err: error }, `sweeping ${what} failed; the next sweep will retry`))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(runOnce, intervalMs);
  timer.unref();
  runOnce();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
