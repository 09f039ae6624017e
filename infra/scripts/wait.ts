export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Thrown as the Error message when the deadline passes. */
  timeoutMessage: string;
}

/** Polls `check` until it returns true; `check` may throw to abort the wait early. */
export async function waitUntil(check: () => Promise<boolean> | boolean, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!(await check())) {
    if (Date.now() >= deadline) throw new Error(options.timeoutMessage);
    await sleep(options.intervalMs ?? 500);
  }
}
