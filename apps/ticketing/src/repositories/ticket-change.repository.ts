import { isMode, type Tenant } from '@ticketing/auth';
import type { OutboxRow } from '@ticketing/kafka';
import type { TicketingDb } from '../db';
import { RETIREMENTS, type Retirement } from '../domain/ticket-change';
import { enqueue } from './outbox-sql';

/** The seat a retired seated ticket keeps until its unit is back in its tier (decision 0033). */
export interface SeatToFree {
  eventId: string;
  seatId: string;
  /** What retired the ticket: the `reason` of the seat's `seat.released`. */
  reason: (typeof RETIREMENTS)[Retirement]['status'];
}

/** A change whose ticket's unit catalog has yet to take back. */
export interface PendingReturn {
  changeId: string;
  tenant: Tenant;
  /** The reservation the unit was sold under (the ticket's issuance). */
  reservationId: string;
  /** A refunded or revoked seated ticket's seat, freed with the return; null for any other. */
  seat: SeatToFree | null;
}

interface PendingReturnRow {
  id: string;
  account_id: string;
  mode: string;
  return_reservation_id: string;
  kind: string;
  event_id: string;
  seat_id: string | null;
}

const isRetirement = (kind: string): kind is Retirement => Object.hasOwn(RETIREMENTS, kind);

/**
 * The units that refunds and revocations give back to their tiers (decision 0032). The re-driver's
 * scan looks across tenants; marking one done or postponed needs only its id.
 */
export class TicketChangeRepository {
  constructor(private readonly db: TicketingDb) {}

  /**
   * Records that catalog has the unit back. A retired seated ticket's seat is freed in the same
   * statement, announced by `seatReleased`, so the seat comes back to sale with its unit, never
   * before it (decision 0033). Marking a return already marked changes nothing.
   */
  async markReturned(changeId: string, at: Date, seatReleased: OutboxRow<unknown> | null): Promise<void> {
    if (!seatReleased) {
      await this.db.$executeRaw`UPDATE ticket_changes SET returned_at = ${at} WHERE id = ${changeId} AND returned_at IS NULL`;
      return;
    }
    await this.db.$executeRaw`
      WITH returned AS (
        UPDATE ticket_changes SET returned_at = ${at} WHERE id = ${changeId} AND returned_at IS NULL RETURNING ticket_id),
      freed AS (
        DELETE FROM seat_claims c USING returned r, tickets t
         WHERE t.id = r.ticket_id AND c.event_id = t.event_id AND c.seat_id = t.seat_id AND c.ticket_id = t.id
        RETURNING c.seat_id)
      ${enqueue(seatReleased)} FROM freed`;
  }

  /** Sends a return that could not be made to the back of the re-driver's queue. */
  async postponeReturn(changeId: string, at: Date): Promise<void> {
    await this.db.ticketChange.updateMany({ where: { id: changeId, returned_at: null }, data: { return_attempted_at: at } });
  }

  /** Returns not made, of every tenant, last tried before `before`: a crash or catalog unreachable. */
  async pendingReturns(before: Date, limit: number): Promise<PendingReturn[]> {
    const rows = await this.db.$queryRaw<PendingReturnRow[]>`
      SELECT c.id, c.account_id, c.mode, c.return_reservation_id, c.kind, t.event_id, t.seat_id
        FROM ticket_changes c JOIN tickets t ON t.id = c.ticket_id
       WHERE c.return_reservation_id IS NOT NULL AND c.returned_at IS NULL AND c.return_attempted_at < ${before}
       ORDER BY c.return_attempted_at LIMIT ${limit}`;
    return rows.map(({ id, account_id, mode, return_reservation_id, kind, event_id, seat_id }) => {
      if (!isMode(mode)) throw new Error(`ticket change ${id} has an unknown mode: ${mode}`);
      const seat = seat_id && isRetirement(kind) ? { eventId: event_id, seatId: seat_id, reason: RETIREMENTS[kind].status } : null;
      return { changeId: id, tenant: { accountId: account_id, mode }, reservationId: return_reservation_id, seat };
    });
  }
}
