import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the queue looks like at scrape time. */
export interface DeliveryBacklog {
  /** Deliveries due now (or overdue) and not yet attempted. */
  due: number;
  /** Seconds since the oldest of them fell due; 0 when none is. */
  oldestDueSeconds: number;
}

/**
 * Prometheus metrics of the dispatcher: attempts by outcome and latency, and the queue measured
 * at scrape time (a failed measurement leaves the gauges out rather than stale).
 */
export class DeliveryMetrics {
  readonly attempts: Counter<'outcome'>;
  readonly latency: Histogram;

  constructor(registry: Registry, measureBacklog: () => Promise<DeliveryBacklog>) {
    this.attempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Delivery attempts by outcome: succeeded (a 2xx answer), failed (any other answer, a timeout, a refused connection) or canceled (the endpoint was deleted or disabled).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    this.latency = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'From sending an attempt to its answer or failure.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    let backlog: Promise<DeliveryBacklog | null> | null = null;
    const measured = () => (backlog ??= measureBacklog().catch(() => null).finally(() => setImmediate(() => (backlog = null))));
    new Gauge({
      name: 'webhook_deliveries_due',
      help: 'Deliveries due now and not yet attempted: the queue depth.',
      registers: [registry],
      async collect() {
        const value = await measured();
        if (value) this.set(value.due);
      },
    });
    new Gauge({
      name: 'webhook_oldest_due_delivery_age_seconds',
      help: 'How long the oldest due delivery has waited for its attempt.',
      registers: [registry],
      async collect() {
        const value = await measured();
        if (value) this.set(value.oldestDueSeconds);
      },
    });
  }
}
