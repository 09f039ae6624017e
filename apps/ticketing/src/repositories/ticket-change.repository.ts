import { isMode, type Tenant } from '@ticketing/auth';
import type { TicketingDb } from '../db';

/** A change whose ticket's unit catalog has yet to take back. */
export interface PendingReturn {
  changeId: string;
  tenant: Tenant;
  /** The reservation the unit was sold under (the ticket's issuance). */
  reservationId: string;
}

/**
 * The units that refunds and revocations give back to their tiers (decision 0032). The re-driver's
 * scan looks across tenants; marking one done or postponed needs only its id.
 */
export class TicketChangeRepository {
  constructor(private readonly db: TicketingDb) {}

  async markReturned(changeId: string, at: Date): Promise<void> {
    await this.db.ticketChange.updateMany({ where: { id: changeId, returned_at: null }, data: { returned_at: at } });
  }

  /** Sends a return that could not be made to the back of the re-driver's queue. */
  async postponeReturn(changeId: string, at: Date): Promise<void> {
    await this.db.ticketChange.updateMany({ where: { id: changeId, returned_at: null }, data: { return_attempted_at: at } });
  }

  /** Returns not made, of every tenant, last tried before `before`: a crash or catalog unreachable. */
  async pendingReturns(before: Date, limit: number): Promise<PendingReturn[]> {
    const rows = await this.db.ticketChange.findMany({
      where: { return_reservation_id: { not: null }, returned_at: null, return_attempted_at: { lt: before } },
      orderBy: { return_attempted_at: 'asc' },
      take: limit,
      select: { id: true, account_id: true, mode: true, return_reservation_id: true },
    });
    return rows.map(({ id, account_id, mode, return_reservation_id }) => {
      if (!isMode(mode)) throw new Error(`ticket change ${id} has an unknown mode: ${mode}`);
      return { changeId: id, tenant: { accountId: account_id, mode }, reservationId: return_reservation_id! };
    });
  }
}
