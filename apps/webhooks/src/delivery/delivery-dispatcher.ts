import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from '../db';
import type { ClaimedDelivery } from '../domain/delivery';
import { DeliveryRepository } from '../repositories/delivery.repository';
import { EndpointRepository } from '../repositories/endpoint.repository';
import { NotificationRepository } from '../repositories/notification.repository';
import type { AttemptDeliveryUseCase } from '../usecases/attempt-delivery/attempt-delivery.usecase';
import type { DeliveryMetrics } from './delivery-metrics';

/**
 * The least time between two claims that did not take every free slot: attempts that end within
 * it free their slots for one claim together, instead of one claim (three statements) each.
 */
const CLAIM_GAP_MS = 10;

export interface DispatcherOptions {
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Attempts in flight at once to one endpoint, so a slow endpoint holds at most this many of the slots. */
  perEndpoint: number;
  /** How long a claim keeps a delivery from other claims: longer than an attempt can take. */
  leaseMs: number;
  /** How often to look for due deliveries when nothing wakes the dispatcher (retries, other replicas' notifications). */
  pollMs: number;
}

/**
 * Sends due deliveries: claims them from the durable schedule (so any replica may send any
 * delivery, and a restart loses none), a bounded number at a time and a few per endpoint, and
 * starts each attempt without waiting for the others. Woken when a notification is recorded in
 * this process or an attempt ends, and polls otherwise.
 */
export class DeliveryDispatcher {
  private readonly inFlightByEndpoint = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly attempt: AttemptDeliveryUseCase,
    private readonly metrics: DeliveryMetrics,
    private readonly options: DispatcherOptions,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Claims nothing more and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.all(this.attempts);
  }

  private async run(): Promise<void> {
    let failures = 0;
    let lastPartialClaim = 0;
    while (!this.stopping) {
      const sinceLastClaim = performance.now() - lastPartialClaim;
      if (sinceLastClaim < CLAIM_GAP_MS) await sleep(CLAIM_GAP_MS - sinceLastClaim);
      const free = this.options.concurrency - this.attempts.size;
      let claimed = 0;
      this.woken = false;
      if (free > 0) {
        try {
          claimed = await this.claimAndStart(free);
          failures = 0;
        } catch (error) {
          failures += 1;
          this.logger.error({ err: error, failures }, 'could not claim due webhook deliveries; trying again');
        }
      }
      if (claimed < free) lastPartialClaim = performance.now();
      // A full claim means more may be due: claim again at once.
      if (free === 0 || claimed < free || failures > 0) await this.pause(failures > 0 ? Math.min(this.options.pollMs * 2 ** failures, 30_000) : this.options.pollMs);
    }
  }

  private async claimAndStart(free: number): Promise<number> {
    const claimed = await new DeliveryRepository(this.prisma).claimDue(free, this.options.perEndpoint, this.inFlightByEndpoint, this.options.leaseMs);
    if (claimed.length === 0) return 0;
    const [endpoints, notifications] = await Promise.all([
      new EndpointRepository(this.prisma).findForDelivery([...new Set(claimed.map((delivery) => delivery.endpoint_id))]),
      new NotificationRepository(this.prisma).findMany([...new Set(claimed.map((delivery) => delivery.notification_id))]),
    ]);
    const endpointById = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    const notificationById = new Map(notifications.map((notification) => [notification.id, notification]));
    for (const delivery of claimed) {
      // A notification is never deleted (the foreign key holds it).
      this.track(delivery, this.attempt.execute({ delivery, endpoint: endpointById.get(delivery.endpoint_id) ?? null, notification: notificationById.get(delivery.notification_id)! }));
    }
    return claimed.length;
  }

  private track(delivery: ClaimedDelivery, attempt: ReturnType<AttemptDeliveryUseCase['execute']>): void {
    const endpointId = delivery.endpoint_id;
    this.inFlightByEndpoint.set(endpointId, (this.inFlightByEndpoint.get(endpointId) ?? 0) + 1);
    const tracked = attempt
      .then((outcome) => {
        this.metrics.attempts.inc({ outcome: outcome === null ? 'canceled' : outcome.succeeded ? 'succeeded' : 'failed' });
        if (outcome) this.metrics.latency.observe(outcome.latencyMs / 1000);
      })
      // The lease brings the delivery back when its attempt could not be recorded.
      .catch((error: unknown) => this.logger.error({ err: error, delivery_id: delivery.id }, 'webhook attempt could not be completed; it is due again when its lease ends'))
      .finally(() => {
        const left = (this.inFlightByEndpoint.get(endpointId) ?? 1) - 1;
        if (left === 0) this.inFlightByEndpoint.delete(endpointId);
        else this.inFlightByEndpoint.set(endpointId, left);
        this.attempts.delete(tracked);
        this.wake();
      });
    this.attempts.add(tracked);
  }

  private pause(ms: number): Promise<void> {
    if (this.woken || this.stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
    });
  }
}
