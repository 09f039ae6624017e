import type { DomainEventEnvelope } from '@ticketing/contracts';
import { recordFirstDelivery } from '@ticketing/kafka';
import type { Prisma } from '../../generated/prisma/client';
import type { PrismaClient } from '../../db';
import { NotificationRepository } from '../../repositories/notification.repository';

/**
 * Records a domain event as a notification of its account, exactly once however often Kafka
 * delivers it: the inbox row and the notification commit together.
 */
export class RecordNotificationUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly consumerName: string,
  ) {}

  /** True when this delivery created the notification, false for a redelivery. */
  execute(event: DomainEventEnvelope): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await recordFirstDelivery(tx, this.consumerName, event.id))) return false;
      await new NotificationRepository(tx).create(
        { accountId: event.account_id, mode: event.mode },
        { source_event_id: event.id, type: event.type, data: event.data as Prisma.InputJsonValue, occurred_at: new Date(event.occurred_at) },
      );
      return true;
    });
  }
}
