import { tenantKey, type Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { GroupCommit } from '@ticketing/db';
import type { PrismaClient } from '../../db';
import { requiredIdParam } from '@ticketing/fields';
import { settlementRefusal, type ReservationView, type Settlement } from '../../domain/reservation';
import { ReservationRepository } from '../../repositories/reservation.repository';
import { TierRepository } from '../../repositories/tier.repository';

/**
 * Commits a held reservation (its units become sold) or releases it (they become available), in
 * one statement that moves the tier's counters with it. Every sale is committed, so the commits
 * of a tenant that arrive while its previous commit statement runs go together in the next one
 * (group commit, decision 0039). The same settlement again answers with the reservation as it
 * is; the other one, once settled, is refused.
 */
export class SettleReservationUseCase {
  private readonly commits: GroupCommit<{ tenant: Tenant; id: string }, ReservationView | null>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.commits = new GroupCommit(async (_key, items) => {
      const committed = await new ReservationRepository(this.prisma).commitAll(items[0]!.tenant, items.map((item) => item.id), this.clock());
      return items.map((item) => committed.get(item.id) ?? null);
    });
  }

  async execute(tenant: Tenant, reservationId: string, settlement: Settlement): Promise<ReservationView> {
    const id = requiredIdParam(reservationId, 'reservation_id');
    const settled =
      settlement === 'committed'
        ? await this.commits.run(tenantKey(tenant), { tenant, id })
        : await new ReservationRepository(this.prisma).release(tenant, id, this.clock());
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
