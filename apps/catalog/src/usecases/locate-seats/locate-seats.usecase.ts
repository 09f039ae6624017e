import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { notOnSaleRefusal, type ReservationKind } from '../../domain/reservation';
import { locateSeats } from '../../domain/seat-map';
import { EventRepository } from '../../repositories/event.repository';
import { SeatMapRepository } from '../../repositories/seat-map.repository';
import { TierRepository } from '../../repositories/tier.repository';

/**
 * Which tier each named seat of an event sells under: what a seat hold checks its seats against,
 * and whether the event's waiting room is enabled now, which a hold for a sale must respect.
 * Seats are held as their tickets would be had (decision 0033): for a sale, the event must be
 * published and each seat's tier on sale now, or a hold made before the on-sale would take the
 * best seats from everyone who waited for it; for comps, which are issued before an event is
 * published too, any event not canceled or completed. The seats located are noted, in step with
 * seat map changes, so that a new layout keeps them while their hold may be committing (decision
 * 0014).
 */
export class LocateSeatsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, eventId: string, seatIds: readonly string[], kind: ReservationKind): Promise<{ seats: Array<{ seat_id: string; tier_id: string }>; waitingRoomEnabled: boolean }> {
    const id = requiredIdParam(eventId, 'event_id');
    return this.prisma.$transaction(async (tx) => {
      const seatMaps = new SeatMapRepository(tx);
      await seatMaps.lockForLocating(id);
      const standing = await new EventRepository(tx).salesStanding(tenant, id);
      if (!standing) throw ApiError.resourceMissing('event', id);
      const at = new Date();
      const eventRefusal = notOnSaleRefusal(kind, standing, [], at);
      if (eventRefusal) throw eventRefusal;
      const stored = await seatMaps.find(tenant, id);
      if (!stored) throw new ApiError('resource_missing', `Event '${eventId}' has no seat map, so it has no seats to hold.`);
      const located = locateSeats(stored.layout, seatIds);
      if (kind === 'sale') {
        const tiers = await new TierRepository(tx).findByIds(tenant, [...new Set(located.map((seat) => seat.tier_id))]);
        const tierRefusal = notOnSaleRefusal(kind, standing, [...tiers.values()], at);
        if (tierRefusal) throw tierRefusal;
      }
      await seatMaps.recordLocated(id, located.map((seat) => seat.seat_id));
      return { seats: located, waitingRoomEnabled: standing.waitingRoomEnabled };
    });
  }
}
