import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { CatalogEvent } from '../../domain/event';
import { EventRepository } from '../../repositories/event.repository';

/** An event of the caller's account and mode; another mode's event does not exist here. */
export class GetEventUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<CatalogEvent> {
    const event = await new EventRepository(this.prisma).findById(tenant, id);
    if (!event) throw ApiError.resourceMissing('event', id);
    return event;
  }
}
