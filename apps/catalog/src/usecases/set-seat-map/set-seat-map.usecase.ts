import type { Tenant } from '@ticketing/auth';
import { CATALOG_EVENT_TOPIC } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { toTierFacts } from '../../domain/event-facts';
import { assertEditable } from '../../domain/event-status';
import { LOCATED_SEAT_GUARD_SECONDS, seatId, seatMapView, validSeatLayout, type SeatLayout, type SeatMapView } from '../../domain/seat-map';
import type { CatalogTier } from '../../domain/tier';
import { EventRepository } from '../../repositories/event.repository';
import { SeatMapRepository } from '../../repositories/seat-map.repository';
import { TierRepository } from '../../repositories/tier.repository';

/** The tier of every seat of a layout, by seat id. */
function seatTiers(layout: SeatLayout): Map<string, string> {
  return new Map(layout.sections.flatMap((section) => section.rows.flatMap((row) => row.seats.map((seat) => [seatId(section.label, row.label, seat.label), seat.tier_id] as const))));
}

/**
 * Sets each seated tier's capacity to its number of seats in the new layout (none: 0), as one
 * seat is one ticket: a capacity below it let seats be held that could never be sold, one above
 * it showed tickets on sale that no seat could carry. Answers the tiers it changed. A tier whose
 * held and sold tickets would not fit is refused, as a capacity change below them is.
 */
async function fitSeatedTiersToSeats(tiers: TierRepository, tenant: Tenant, seatedTiers: readonly CatalogTier[], seatTierById: ReadonlyMap<string, string>): Promise<CatalogTier[]> {
  const seatsByTier = new Map<string, number>();
  for (const tierId of seatTierById.values()) seatsByTier.set(tierId, (seatsByTier.get(tierId) ?? 0) + 1);
  const resized: CatalogTier[] = [];
  for (const tier of seatedTiers) {
    const seats = seatsByTier.get(tier.id) ?? 0;
    if (seats === tier.capacity) continue;
    if (!(await tiers.setCapacity(tenant, tier.id, seats))) {
      const committed = (await tiers.findById(tenant, tier.event_id, tier.id))!;
      throw new ApiError(
        'capacity_below_committed',
        `The layout gives tier ${tier.id} ${seats} seats, fewer than its ${committed.held + committed.sold} tickets held or sold (${committed.held} held, ${committed.sold} sold): keep their seats.`,
        { param: 'sections' },
      );
    }
    resized.push((await tiers.findById(tenant, tier.event_id, tier.id))!);
  }
  return resized;
}

/**
 * Replaces an event's seat map, and with it the capacity of each seated tier: its number of
 * seats. Seats that are held or sold must stay, under the same tier: a new layout may add and
 * rearrange seats, never take away one somebody holds or bought. So must seats a hold asked for
 * within the last minute: that hold may be committing in ticketing while catalog has not yet
 * heard of it (decision 0014).
 */
export class SetSeatMapUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, eventId: string, sections: SeatLayout['sections']): Promise<SeatMapView & { updated_at: Date }> {
    return this.prisma.$transaction(async (tx) => {
      const event = await new EventRepository(tx).lock(tenant, eventId);
      if (!event) throw ApiError.resourceMissing('event', eventId);
      assertEditable(event.status);
      const tiers = new TierRepository(tx);
      const seatedTiers = await tiers.seatedTiers(tenant, eventId);
      const { layout, seatCount } = validSeatLayout(sections, new Set(seatedTiers.map((tier) => tier.id)));
      const seatMaps = new SeatMapRepository(tx);
      await seatMaps.lockForChange(eventId);
      const previous = await seatMaps.find(tenant, eventId);
      const { unavailable } = await seatMaps.seatStatuses(tenant, eventId);
      const located = await seatMaps.locatedWithin(eventId, LOCATED_SEAT_GUARD_SECONDS);
      const before = previous ? seatTiers(previous.layout) : new Map<string, string>();
      const after = seatTiers(layout);
      // Why a seat cannot leave or change tier now: it is held or sold, or a hold asked for it a moment ago and may still be committing.
      const whyKept = (seat: string, tier: string) => {
        const status = unavailable.get(seat);
        if (status) return `Seat ${seat} is ${status}: keep it in the seat map under tier ${tier}.`;
        if (located.has(seat)) return `Seat ${seat} was asked for by a seat hold less than ${LOCATED_SEAT_GUARD_SECONDS} s ago, which may still be committing: keep it in the seat map under tier ${tier}, or change it after that.`;
        return null;
      };
      for (const [seat, tier] of before) {
        const why = after.get(seat) === tier ? null : whyKept(seat, tier);
        if (why) throw new ApiError('seatmap_locked', why, { param: 'sections' });
      }
      const resized = await fitSeatedTiersToSeats(tiers, tenant, seatedTiers, after);
      const updatedAt = await seatMaps.replace(tenant, eventId, layout, seatCount);
      await enqueueEvent(tx, { topic: CATALOG_EVENT_TOPIC, type: 'seatmap.updated', aggregateId: eventId, tenant, data: { event_id: eventId, seat_count: seatCount } });
      for (const tier of resized) await enqueueEvent(tx, { topic: CATALOG_EVENT_TOPIC, type: 'tier.updated', aggregateId: eventId, tenant, data: toTierFacts(tier) });
      return { ...seatMapView(layout, unavailable), updated_at: updatedAt };
    });
  }
}
