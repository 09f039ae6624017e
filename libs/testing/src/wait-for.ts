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
