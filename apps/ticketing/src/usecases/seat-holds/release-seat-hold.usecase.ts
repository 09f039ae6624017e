import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { seatHoldUnavailable, type TicketingSeatHold } from '../../domain/seat-hold';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';
import { announceEnded } from './seat-hold-messages';

/** Frees an active hold's seats and publishes `seat.released`; a hold already ended is answered as it is. */
export class ReleaseSeatHoldUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(tenant: Tenant, command: { event_id: string; hold_id: string }): Promise<TicketingSeatHold> {
    const eventId = requiredIdParam(command.event_id, 'event_id');
    const holdId = requiredIdParam(command.hold_id, 'hold_id');
    return this.prisma.$transaction(async (tx) => {
      const holds = new SeatHoldRepository(tx);
      for (;;) {
        const released = await holds.release(tenant, eventId, holdId, this.clock());
        if (released) {
          await announceEnded(tx, [released]);
          return released.hold;
        }
        const existing = await holds.find(tenant, holdId, eventId);
        if (!existing) throw ApiError.resourceMissing('seat hold', holdId);
        // Taken by an issuance: its seats are being sold, or are sold.
        if (existing.issuance_id || existing.taken_by) throw seatHoldUnavailable(existing, this.clock(), null);
        if (existing.status !== 'active') return existing;
        // Active and free again: an issuance that had taken it let go of it in between. Release it now.
      }
    });
  }
}
