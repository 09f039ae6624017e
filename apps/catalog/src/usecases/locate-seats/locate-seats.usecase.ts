import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { isFinal } from '../../domain/event-status';
import { locateSeats } from '../../domain/seat-map';
import { EventRepository } from '../../repositories/event.repository';
import { SeatMapRepository } from '../../repositories/seat-map.repository';

/**
 * Which tier each named seat of an event sells under: what a seat hold checks its seats against,
 * and whether the event's waiting room is enabled now, which a hold for a sale must respect.
 * A canceled or completed event takes no more tickets, so none of its seats can be held; a draft
 * event's can (comps are issued before the event is published). The seats located are noted, in
 * step with seat map changes, so that a new layout keeps them while their hold may be committing
 * (decision 0014).
 */
export class LocateSeatsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, eventId: string, seatIds: readonly string[]): Promise<{ seats: Array<{ seat_id: string; tier_id: string }>; waitingRoomEnabled: boolean }> {
    const id = requiredIdParam(eventId, 'event_id');
    return this.prisma.$transaction(async (tx) => {
      const seatMaps = new SeatMapRepository(tx);
      await seatMaps.lockForLocating(id);
      const standing = await new EventRepository(tx).salesStanding(tenant, id);
      if (!standing) throw ApiError.resourceMissing('event', id);
      if (isFinal(standing.status)) throw new ApiError('event_not_on_sale', `The event is ${standing.status}; it takes no more tickets, so its seats cannot be held.`);
      const stored = await seatMaps.find(tenant, id);
      if (!stored) throw new ApiError('resource_missing', `Event '${eventId}' has no seat map, so it has no seats to hold.`);
      const located = locateSeats(stored.layout, seatIds);
      await seatMaps.recordLocated(id, located.map((seat) => seat.seat_id));
      return { seats: located, waitingRoomEnabled: standing.waitingRoomEnabled };
    });
  }
}
