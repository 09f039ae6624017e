import { claimsForTenant, type InternalClaims, type Tenant } from '@ticketing/auth';
import { TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import { outboxRow, type OutboxRow } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { TicketChangeRepository, type PendingReturn, type SeatToFree } from '../../repositories/ticket-change.repository';

const BATCH = 100;

/** `seat.released` for a retired ticket's seat, freed once its unit is back (decision 0033). */
function seatReleased(tenant: Tenant, seat: SeatToFree): OutboxRow<unknown> {
  return outboxRow({ topic: TICKETING_SEAT_TOPIC, type: 'seat.released', aggregateId: seat.eventId, tenant, data: { event_id: seat.eventId, seat_ids: [seat.seatId], reason: seat.reason } });
}

/**
 * Gives the units of refunded and revoked tickets back to their tiers (decision 0032). The change
 * is committed first with its return pending; catalog's return is idempotent by the change id, so
 * asking again after a crash or a lost reply never gives a unit back twice. A return that fails
 * waits for the re-driver, which keeps asking until catalog answers: per tier, `sold` then counts
 * exactly the tickets still valid or checked in. A refunded or revoked seated ticket's seat is
 * freed with the return, so the seat is never for sale while its tier still counts it sold.
 */
export class ReturnUnitsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** True once catalog has the unit back; false when it must wait for the re-driver (logged). */
  async returnUnit(claims: InternalClaims, pending: PendingReturn): Promise<boolean> {
    const changes = new TicketChangeRepository(this.prisma);
    try {
      await this.catalog.returnUnit(claims, pending.changeId, pending.reservationId);
    } catch (error) {
      this.logger.warn({ err: error, change_id: pending.changeId }, 'a retired ticket’s unit was not given back to its tier yet; the re-driver asks again');
      await changes.postponeReturn(pending.changeId, this.clock());
      return false;
    }
    await changes.markReturned(pending.changeId, this.clock(), pending.seat && seatReleased(pending.tenant, pending.seat));
    return true;
  }

  /** Returns last tried over `stalledForMs` ago, asked again now; answers how many catalog took. */
  async redrive(stalledForMs: number): Promise<number> {
    const pending = await new TicketChangeRepository(this.prisma).pendingReturns(new Date(this.clock().getTime() - stalledForMs), BATCH);
    let returned = 0;
    for (const unit of pending) {
      if (await this.returnUnit(claimsForTenant(unit.tenant), unit)) returned += 1;
    }
    return returned;
  }
}
