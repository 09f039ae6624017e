import type { Tenant } from '@ticketing/auth';
import type { DomainEventEnvelope } from '@ticketing/contracts';
import type { Prisma } from '../../generated/prisma/client';
import type { PrismaClient, WebhooksDb } from '../../db';
import { NotificationRepository } from '../../repositories/notification.repository';

/**
 * Records a domain event as a notification of its account, once however often it arrives, with
 * a delivery, due now, to each enabled endpoint of the account and mode that subscribes to its
 * type: one statement. The number of deliveries, or null for an event recorded before.
 */
export async function recordNotification(db: WebhooksDb, event: DomainEventEnvelope): Promise<number | null> {
  const tenant: Tenant = { accountId: event.account_id, mode: event.mode };
  const fields = { source_event_id: event.id, type: event.type, data: event.data as Prisma.InputJsonValue, occurred_at: new Date(event.occurred_at) };
  const recorded = await new NotificationRepository(db).createWithDeliveries(tenant, fields);
  return recorded?.deliveries ?? null;
}

/** A domain event from Kafka becomes a notification and its deliveries, exactly once. */
export class RecordNotificationUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(event: DomainEventEnvelope): Promise<number | null> {
    return recordNotification(this.prisma, event);
  }
}
