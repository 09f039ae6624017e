import { sweepInBatches } from '@ticketing/db';
import type { PrismaClient } from '../../db';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';
import { announceEnded } from './seat-hold-messages';

const BATCH = 200;

/**
 * Ends every active seat hold whose time is up, of every tenant, freeing its seats and
 * publishing `seat.released` in the same transaction: a buyer who vanishes never keeps seats.
 */
export class ExpireSeatHoldsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** How many holds it ended. */
  execute(): Promise<number> {
    return sweepInBatches(BATCH, () =>
      this.prisma.$transaction(async (tx) => {
        const expired = await new SeatHoldRepository(tx).expireDue(this.clock(), BATCH);
        await announceEnded(tx, expired);
        return expired.length;
      }),
    );
  }
}
