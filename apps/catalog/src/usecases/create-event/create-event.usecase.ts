import type { Tenant } from '@ticketing/auth';
import { CATALOG_EVENT_TOPIC } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { validEventName, validStartsAt, type CatalogEvent } from '../../domain/event';
import { toEventFacts } from '../../domain/event-facts';
import { EventRepository } from '../../repositories/event.repository';

export interface CreateEventCommand {
  name: string;
  starts_at: string;
}

/** Creates an event and, in the same transaction, the `event.created` message for Kafka. */
export class CreateEventUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: CreateEventCommand): Promise<CatalogEvent> {
    const fields = { name: validEventName(command.name), starts_at: validStartsAt(command.starts_at) };
    return this.prisma.$transaction(async (tx) => {
      const event = await new EventRepository(tx).create(tenant, fields);
      await enqueueEvent(tx, { topic: CATALOG_EVENT_TOPIC, type: 'event.created', aggregateId: event.id, tenant, data: toEventFacts(event) });
      return event;
    });
  }
}
