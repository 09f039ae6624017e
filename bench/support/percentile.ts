/** The value at `fraction` (0.5 for the median) of values sorted ascending; NaN when there are none. */
export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}
