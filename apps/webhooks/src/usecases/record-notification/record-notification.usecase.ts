import type { DomainEventEnvelope } from '@ticketing/contracts';
import type { Prisma } from '../../generated/prisma/client';
import type { PrismaClient, WebhooksDb } from '../../db';
import { NotificationRepository } from '../../repositories/notification.repository';

/**
 * Records the domain events some enabled endpoint of their account and mode subscribes to as
 * notifications, each once however often it arrives, with a delivery, due now, to each such
 * endpoint: one statement for them all. For each event, in order, the number of its deliveries
 * (0, and nothing stored, for an event no endpoint subscribes to), or null for an event recorded
 * before.
 */
export function recordNotifications(db: WebhooksDb, events: readonly DomainEventEnvelope[]): Promise<Array<number | null>> {
  return new NotificationRepository(db).createWithDeliveries(
    events.map((event) => ({
      tenant: { accountId: event.account_id, mode: event.mode },
      fields: { source_event_id: event.id, type: event.type, data: event.data as Prisma.InputJsonValue, occurred_at: new Date(event.occurred_at) },
    })),
  );
}

/** Domain events from Kafka become notifications and their deliveries, exactly once. */
export class RecordNotificationUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  /** The number of the event's deliveries, or null for an event recorded before. */
  async execute(event: DomainEventEnvelope): Promise<number | null> {
    const [deliveries] = await this.executeBatch([event]);
    return deliveries!;
  }

  executeBatch(events: readonly DomainEventEnvelope[]): Promise<Array<number | null>> {
    return recordNotifications(this.prisma, events);
  }
}
