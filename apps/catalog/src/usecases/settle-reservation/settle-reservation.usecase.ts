import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { requiredIdParam } from '@ticketing/fields';
import { settlementRefusal, type ReservationView, type Settlement } from '../../domain/reservation';
import { ReservationRepository } from '../../repositories/reservation.repository';
import { TierRepository } from '../../repositories/tier.repository';

/**
 * Commits a held reservation (its units become sold) or releases it (they become available), in
 * one statement that moves the tier's counters with it. The same settlement again answers with
 * the reservation as it is; the other one, once settled, is refused.
 */
export class SettleReservationUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(tenant: Tenant, reservationId: string, settlement: Settlement): Promise<ReservationView> {
    const id = requiredIdParam(reservationId, 'reservation_id');
    const reservations = new ReservationRepository(this.prisma);
    const settled = await reservations.settle(tenant, id, settlement, this.clock());
    return settled ?? this.alreadySettled(tenant, id, settlement);
  }

  /** Nothing was held: a replay of the same settlement answers the reservation, anything else is refused. */
  private async alreadySettled(tenant: Tenant, id: string, settlement: Settlement): Promise<ReservationView> {
    const reservation = await new ReservationRepository(this.prisma).find(tenant, id);
    if (!reservation) throw new ApiError('resource_missing', `No such reservation: '${id}'.`, { param: 'reservation_id' });
    const refusal = settlementRefusal(reservation, settlement);
    if (refusal) throw refusal;
    const tier = await new TierRepository(this.prisma).findById(tenant, reservation.event_id, reservation.tier_id);
    if (!tier) throw new Error(`reservation ${id} names tier ${reservation.tier_id}, which its tenant does not have`);
    return { reservation, tier };
  }
}
