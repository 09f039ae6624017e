import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { locateSeats } from '../../domain/seat-map';
import { SeatMapRepository } from '../../repositories/seat-map.repository';

/** Which tier each named seat of an event sells under: what a seat hold checks its seats against. */
export class LocateSeatsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, eventId: string, seatIds: readonly string[]): Promise<Array<{ seat_id: string; tier_id: string }>> {
    const stored = await new SeatMapRepository(this.prisma).find(tenant, requiredIdParam(eventId, 'event_id'));
    if (!stored) throw new ApiError('resource_missing', `Event '${eventId}' has no seat map, so it has no seats to hold.`);
    return locateSeats(stored.layout, seatIds);
  }
}
