import { ENDPOINT_DISABLED_EVENT } from '@ticketing/contracts';
import { GroupCommit } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from '../../db';
import type { ClaimedDelivery } from '../../domain/delivery';
import type { WebhookEndpoint } from '../../domain/endpoint';
import type { RetrySchedule } from '../../domain/retry-schedule';
import type { SignedDelivery } from '../../delivery/signed-delivery';
import type { SendOutcome } from '../../delivery/webhook-sender';
import { DeliveryRepository, type ScheduledAttempt } from '../../repositories/delivery.repository';
import { EndpointRepository } from '../../repositories/endpoint.repository';
import type { StoredNotification } from '../../repositories/notification.repository';
import { recordNotifications } from '../record-notification/record-notification.usecase';

/** A claimed delivery with what sending it needs; `endpoint` is null when it was deleted since. */
export interface DeliveryJob {
  delivery: ClaimedDelivery;
  endpoint: WebhookEndpoint | null;
  notification: StoredNotification;
}

export interface AttemptPolicy {
  schedule: RetrySchedule;
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
}

/**
 * One scheduled attempt of one delivery: signed, sent, and recorded with what follows: done,
 * another attempt on the schedule, or failed for good. A failure counts into the endpoint's
 * failing streak, and an endpoint failing too long is disabled with an `endpoint.disabled`
 * notification to the account's other endpoints.
 */
export class AttemptDeliveryUseCase {
  /** Attempts that end together are recorded together, in one statement. */
  private readonly recorded: GroupCommit<ScheduledAttempt, void>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly delivery: SignedDelivery,
    private readonly policy: AttemptPolicy,
    private readonly logger: Logger,
  ) {
    this.recorded = new GroupCommit(async (_key, attempts) => {
      await new DeliveryRepository(prisma).recordAttempts(attempts);
      return attempts.map(() => undefined);
    });
  }

  /**
   * Counts a failure into the endpoint's failing streak; one that has lasted `disableAfterMs`
   * disables the endpoint and records `endpoint.disabled`, together. True when this one did.
   */
  private countFailure(endpoint: WebhookEndpoint, at: Date): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await new EndpointRepository(tx).markFailed(endpoint.id, at, this.policy.disableAfterMs))) return false;
      await recordNotifications(tx, [endpointDisabledEvent(endpoint, at)]);
      return true;
    });
  }

  /** The attempt's outcome; null when there was nothing to send (the endpoint is gone or disabled). */
  async execute({ delivery, endpoint, notification }: DeliveryJob): Promise<SendOutcome | null> {
    if (!endpoint || endpoint.disabled_reason !== null) {
      await new DeliveryRepository(this.prisma).cancel(delivery.id);
      return null;
    }
    const attemptedAt = new Date();
    const outcome = await this.delivery.send(endpoint, notification, attemptedAt);
    const attemptsMade = delivery.attempt_count + 1;
    const nextAttemptAt = outcome.succeeded ? null : this.policy.schedule.nextAttemptAt(attemptsMade, attemptedAt);
    await this.recorded.run('attempts', { deliveryId: delivery.id, endpointId: endpoint.id, record: { attemptedAt, ...outcome, nextAttemptAt } });
    const disabled = !outcome.succeeded && (await this.countFailure(endpoint, attemptedAt));
    const logged = { delivery_id: delivery.id, endpoint_id: endpoint.id, attempt: attemptsMade, status: outcome.status, latency_ms: outcome.latencyMs };
    if (outcome.succeeded) this.logger.debug(logged, 'webhook delivered');
    else this.logger.info({ ...logged, error: outcome.error, next_attempt_at: nextAttemptAt?.toISOString() ?? null }, 'webhook attempt failed');
    if (disabled) this.logger.warn({ endpoint_id: endpoint.id, account_id: endpoint.account_id, mode: endpoint.mode }, 'webhook endpoint disabled: every attempt failed for too long');
    return outcome;
  }
}

function endpointDisabledEvent(endpoint: WebhookEndpoint, at: Date) {
  return {
    id: newId('msg'),
    type: ENDPOINT_DISABLED_EVENT,
    account_id: endpoint.account_id,
    mode: endpoint.mode,
    occurred_at: at.toISOString(),
    data: { endpoint_id: endpoint.id, url: endpoint.url, reason: 'failing' },
  };
}
