import type { Response } from 'express';
import type { RateLimiterRes } from 'rate-limiter-flexible';

/** Whole seconds until a window resets, never 0 while something is still counted. */
export function secondsUntilReset(state: RateLimiterRes): number {
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}

/** The headers agreed for every response of a limited route (docs/decisions/0021). */
export function setRateLimitHeaders(res: Response, limit: number, state: RateLimiterRes): void {
  res.setHeader('RateLimit-Limit', limit);
  res.setHeader('RateLimit-Remaining', state.remainingPoints);
  res.setHeader('RateLimit-Reset', secondsUntilReset(state));
}
