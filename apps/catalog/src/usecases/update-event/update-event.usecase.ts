import type { Tenant } from '@ticketing/auth';
import { CATALOG_EVENT_TOPIC } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { validEventName, validStartsAt, type CatalogEvent } from '../../domain/event';
import { toEventFacts } from '../../domain/event-facts';
import { EventRepository } from '../../repositories/event.repository';

export interface UpdateEventCommand {
  id: string;
  name?: string;
  starts_at?: string;
}

/** Changes the fields given and records `event.updated` in the same transaction. */
export class UpdateEventUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: UpdateEventCommand): Promise<CatalogEvent> {
    const changes = {
      ...(command.name === undefined ? {} : { name: validEventName(command.name) }),
      ...(command.starts_at === undefined ? {} : { starts_at: validStartsAt(command.starts_at) }),
    };
    if (Object.keys(changes).length === 0) {
      throw new ApiError('parameter_missing', 'Give at least one of name, starts_at to change.');
    }
    return this.prisma.$transaction(async (tx) => {
      const event = await new EventRepository(tx).update(tenant, command.id, changes);
      if (!event) throw ApiError.resourceMissing('event', command.id);
      await enqueueEvent(tx, { topic: CATALOG_EVENT_TOPIC, type: 'event.updated', aggregateId: event.id, tenant, data: toEventFacts(event) });
      return event;
    });
  }
}
