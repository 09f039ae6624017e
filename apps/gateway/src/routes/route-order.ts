import type { Route } from './route';

const isParameter = (segment: string) => segment.startsWith('{');

/**
 * Negative when `a` must be registered before `b`. At the first segment where two paths
 * differ, a static segment wins over a parameter, so `GET /v1/events/deliveries` is never
 * taken for the event with id "deliveries". Any total order works for paths that cannot
 * match the same URL; this one is plain lexicographic with static < parameter.
 */
export function compareRoutePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const l = left[index]!;
    const r = right[index]!;
    if (l === r) continue;
    if (isParameter(l) !== isParameter(r)) return isParameter(l) ? 1 : -1;
    return l < r ? -1 : 1;
  }
  return left.length - right.length;
}

export function inMatchingOrder(routes: readonly Route[]): Route[] {
  return [...routes].sort((a, b) => compareRoutePaths(a.path, b.path));
}
