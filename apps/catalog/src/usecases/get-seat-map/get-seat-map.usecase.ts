import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { seatMapView, type SeatMapView } from '../../domain/seat-map';
import { EventRepository } from '../../repositories/event.repository';
import { SeatMapRepository } from '../../repositories/seat-map.repository';

/** The event's layout with each seat's status as ticketing last published it, and when either last changed. */
export class GetSeatMapUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, eventId: string): Promise<SeatMapView & { updated_at: Date }> {
    if (!(await new EventRepository(this.prisma).exists(tenant, eventId))) throw ApiError.resourceMissing('event', eventId);
    const seatMaps = new SeatMapRepository(this.prisma);
    const stored = await seatMaps.find(tenant, eventId);
    if (!stored) {
      throw new ApiError('resource_missing', `Event '${eventId}' has no seat map yet; set one with PUT /v1/events/${eventId}/seatmap.`);
    }
    const { unavailable, changedAt } = await seatMaps.seatStatuses(tenant, eventId);
    // The map changes with its layout and with every seat's status: a client polling it compares this.
    const updatedAt = changedAt !== null && changedAt > stored.updated_at ? changedAt : stored.updated_at;
    return { ...seatMapView(stored.layout, unavailable), updated_at: updatedAt };
  }
}
