import type { Tenant } from '@ticketing/auth';
import { CATALOG_EVENT_TOPIC } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import {
  assertEndsAfterStart,
  validCategory,
  validCurrency,
  validDescription,
  validEndsAt,
  validEventName,
  validStartsAt,
  validTags,
  validVenue,
  validWaitingRoom,
  type CatalogEvent,
  type EventDetails,
  type VenueInput,
  type WaitingRoomInput,
} from '../../domain/event';
import { toEventFacts } from '../../domain/event-facts';
import { EventRepository } from '../../repositories/event.repository';
import { assertOrganizationExists } from '../event-organization';

export interface CreateEventCommand {
  name: string;
  starts_at: string;
  description: string;
  organization_id: string;
  venue: VenueInput | undefined;
  ends_at: string;
  category: string;
  tags: string[];
  currency: string;
  waiting_room: WaitingRoomInput | undefined;
}

/** Creates a draft event and, in the same transaction, the `event.created` message for Kafka. */
export class CreateEventUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: CreateEventCommand): Promise<CatalogEvent> {
    const details: EventDetails = {
      name: validEventName(command.name),
      description: validDescription(command.description),
      organization_id: command.organization_id === '' ? null : command.organization_id,
      venue: validVenue(command.venue),
      starts_at: validStartsAt(command.starts_at),
      ends_at: validEndsAt(command.ends_at),
      category: validCategory(command.category),
      tags: validTags(command.tags),
      currency: validCurrency(command.currency),
      waiting_room: validWaitingRoom(command.waiting_room),
    };
    assertEndsAfterStart(details);
    return this.prisma.$transaction(async (tx) => {
      await assertOrganizationExists(tx, tenant, details.organization_id);
      const event = await new EventRepository(tx).create(tenant, details);
      await enqueueEvent(tx, { topic: CATALOG_EVENT_TOPIC, type: 'event.created', aggregateId: event.id, tenant, data: toEventFacts(event) });
      return event;
    });
  }
}

