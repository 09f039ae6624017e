/** Exponential delays between attempts, capped. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/**
 * The pause after the `failures`-th consecutive failure: doubling from `initialMs` up to `maxMs`,
 * with the upper half randomised so that replicas which failed together do not retry together.
 */
export function backoffDelay(failures: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
