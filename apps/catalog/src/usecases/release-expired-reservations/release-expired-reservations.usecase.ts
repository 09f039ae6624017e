import { sweepInBatches } from '@ticketing/db';
import type { PrismaClient } from '../../db';
import type { CatalogChanges } from '../../reads/announce-writes';
import { ReservationRepository } from '../../repositories/reservation.repository';

const BATCH = 500;

/**
 * Releases every held reservation whose expiry has passed, of every tenant, giving its units
 * back to its tier: a buyer or a caller that vanished never keeps units. Runs in batches of
 * 500, each one statement, so no transaction holds many tier rows for long; after each, the
 * tenants whose tiers changed are announced to catalog's readers (decision 0051).
 */
export class ReleaseExpiredReservationsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly changes: CatalogChanges,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** How many reservations it released. */
  execute(): Promise<number> {
    const reservations = new ReservationRepository(this.prisma);
    return sweepInBatches(BATCH, async () => {
      const { released, tenants } = await reservations.releaseExpired(this.clock(), BATCH);
      await Promise.all(tenants.map((tenant) => this.changes.changed(tenant)));
      return released;
    });
  }
}
