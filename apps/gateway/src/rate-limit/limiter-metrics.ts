import { Counter, type Registry } from 'prom-client';
import type { Logger } from '@ticketing/observability';
import type { Bucket } from './budgets';

/** At most one log line per this interval while the limiter's Redis fails, however many requests. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/**
 * What the limiter reports: each refusal and, since it fails open, each request it let through
 * uncounted because Redis failed. The outage is logged at a bounded rate, never per request.
 */
export class LimiterMetrics {
  private readonly refused: Counter<'bucket'>;
  private readonly uncounted: Counter<'bucket'>;
  private lastOutageLogAt = Number.NEGATIVE_INFINITY;
  private uncountedSinceLog = 0;

  constructor(
    registry: Registry,
    private readonly logger: Logger,
  ) {
    this.refused = new Counter({
      name: 'gateway_rate_limited_total',
      help: 'Requests refused with 429 rate_limited, by bucket.',
      labelNames: ['bucket'],
      registers: [registry],
    });
    this.uncounted = new Counter({
      name: 'gateway_rate_limiter_unavailable_total',
      help: 'Requests let through without a rate-limit check because the limiter could not reach Redis (it fails open), by bucket.',
      labelNames: ['bucket'],
      registers: [registry],
    });
  }

  refusal(bucket: Bucket): void {
    this.refused.inc({ bucket });
  }

  outage(bucket: Bucket, error: unknown): void {
    this.uncounted.inc({ bucket });
    this.uncountedSinceLog += 1;
    const now = performance.now();
    if (now - this.lastOutageLogAt < OUTAGE_LOG_INTERVAL_MS) return;
    this.logger.warn(
      { err: error, bucket, requests_uncounted: this.uncountedSinceLog },
      'rate limiter cannot reach Redis: requests pass without rate limits until it is back',
    );
    this.lastOutageLogAt = now;
    this.uncountedSinceLog = 0;
  }
}
