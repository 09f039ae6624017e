import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { isFinal } from '../../domain/event-status';
import { locateSeats } from '../../domain/seat-map';
import { EventRepository } from '../../repositories/event.repository';
import { SeatMapRepository } from '../../repositories/seat-map.repository';

/**
 * Which tier each named seat of an event sells under: what a seat hold checks its seats against.
 * A canceled or completed event takes no more tickets, so none of its seats can be held; a draft
 * event's can (comps are issued before the event is published).
 */
export class LocateSeatsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, eventId: string, seatIds: readonly string[]): Promise<Array<{ seat_id: string; tier_id: string }>> {
    const id = requiredIdParam(eventId, 'event_id');
    const standing = await new EventRepository(this.prisma).salesStanding(tenant, id);
    if (!standing) throw ApiError.resourceMissing('event', id);
    if (isFinal(standing.status)) throw new ApiError('event_not_on_sale', `The event is ${standing.status}; it takes no more tickets, so its seats cannot be held.`);
    const stored = await new SeatMapRepository(this.prisma).find(tenant, id);
    if (!stored) throw new ApiError('resource_missing', `Event '${eventId}' has no seat map, so it has no seats to hold.`);
    return locateSeats(stored.layout, seatIds);
  }
}
