/**
 * When a failed delivery is tried again: Svix's schedule, about a day in all. The delays follow
 * the first attempt, which is made as soon as the notification is recorded.
 */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000];

/** Each delay moves by up to a fifth either way, so deliveries that failed together do not all come back together. */
const JITTER = 0.2;

export class RetrySchedule {
  constructor(
    private readonly delaysMs: readonly number[],
    private readonly random: () => number = Math.random,
  ) {}

  /** When to try again after the `attemptsMade`-th failed attempt, or null when the schedule is spent. */
  nextAttemptAt(attemptsMade: number, failedAt: Date): Date | null {
    const delay = this.delaysMs[attemptsMade - 1];
    if (delay === undefined) return null;
    const jittered = delay * (1 - JITTER + 2 * JITTER * this.random());
    return new Date(failedAt.getTime() + Math.round(jittered));
  }
}
