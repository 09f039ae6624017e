/**
 * Polls until `probe` returns a value other than undefined, or fails after `timeoutMs` saying
 * what was awaited. Tests wait for effects this way, never with a fixed sleep.
 */
export async function waitFor<T>(
  description: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 30_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** What `waitForLockWaiters` asks the database with: any Prisma client, or a transaction of one. */
interface LockWaitersQuery {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
}

/**
 * Resolves once at least `count` sessions of the client's database wait for a lock: the
 * statements a test meant to block have reached the lock it holds, so what it checks next
 * happens while they wait.
 */
export async function waitForLockWaiters(db: LockWaitersQuery, count = 1): Promise<void> {
  await waitFor(
    `${count} session(s) waiting for a lock`,
    async () => {
      const [{ waiting }] = await db.$queryRaw<[{ waiting: number }]>`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      return waiting >= count ? true : undefined;
    },
    { intervalMs: 10 },
  );
}
