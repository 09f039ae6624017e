import type { Tenant } from '@ticketing/auth';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { validQuantity, type ReservationKind } from '../../domain/reservation';
import { ReservationRepository } from '../../repositories/reservation.repository';

export interface WithdrawReservationCommand {
  reservation_id: string;
  tier_id: string;
  quantity: number;
  kind: ReservationKind;
}

/** Rounds of release, then record, before a reservation that keeps reappearing held is an error: each round sees what committed before it. */
const MAX_ROUNDS = 3;

/**
 * Gives up a reservation whose outcome its caller does not know (decision 0029): a reserve call
 * that timed out may still be carried out later, by a process that was stalled or a connection
 * that delivers late, after a retry has given its units back and held its own; the retry was
 * then refused sold_out by its own first attempt. So a held reservation is released, and one not
 * made yet is recorded as released, whose id a late reserve then meets, holding nothing. When
 * the recording finds the id taken after all (the reserve committed meanwhile), the release is
 * tried again, in a new statement that sees it. A settled reservation is left as it is.
 */
export class WithdrawReservationUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Whether held units went back on sale. */
  async execute(tenant: Tenant, command: WithdrawReservationCommand): Promise<boolean> {
    const withdrawal = {
      id: requiredIdParam(command.reservation_id, 'reservation_id'),
      tier_id: requiredIdParam(command.tier_id, 'tier_id'),
      quantity: validQuantity(command.quantity),
      kind: command.kind,
    };
    const reservations = new ReservationRepository(this.prisma);
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const at = this.clock();
      if (await reservations.release(tenant, withdrawal.id, at)) return true;
      if (await reservations.recordWithdrawn(tenant, withdrawal, at)) return false;
      const made = await reservations.find(tenant, withdrawal.id);
      // Settled, or not the tenant's to withdraw (no such tier, or another tenant's id): nothing is held for this caller.
      if (made?.status !== 'held') return false;
    }
    throw new Error(`reservation ${withdrawal.id} is still held after ${MAX_ROUNDS} rounds of withdrawing it`);
  }
}
