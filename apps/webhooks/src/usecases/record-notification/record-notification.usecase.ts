import type { Tenant } from '@ticketing/auth';
import type { DomainEventEnvelope } from '@ticketing/contracts';
import type { Prisma } from '../../generated/prisma/client';
import type { PrismaClient, WebhooksDb } from '../../db';
import { DeliveryRepository } from '../../repositories/delivery.repository';
import { EndpointRepository } from '../../repositories/endpoint.repository';
import { NotificationRepository } from '../../repositories/notification.repository';

/**
 * Records a domain event as a notification of its account, once however often it arrives, and
 * schedules a delivery to each enabled endpoint of the account and mode that subscribes to its
 * type, all in the caller's transaction. The number of deliveries, or null for an event recorded before.
 */
export async function recordNotification(db: WebhooksDb, event: DomainEventEnvelope, now: Date): Promise<number | null> {
  const tenant: Tenant = { accountId: event.account_id, mode: event.mode };
  const id = await new NotificationRepository(db).createOnce(tenant, {
    source_event_id: event.id,
    type: event.type,
    data: event.data as Prisma.InputJsonValue,
    occurred_at: new Date(event.occurred_at),
  });
  if (id === null) return null;
  const subscribers = await new EndpointRepository(db).subscribersOf(tenant, event.type);
  await new DeliveryRepository(db).schedule(tenant, { id, type: event.type }, subscribers, now);
  return subscribers.length;
}

/** A domain event from Kafka becomes a notification and its deliveries, exactly once. */
export class RecordNotificationUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(event: DomainEventEnvelope): Promise<number | null> {
    return this.prisma.$transaction((tx) => recordNotification(tx, event, new Date()));
  }
}
