import { isMode, type Tenant } from '@ticketing/auth';
import type { TicketingDb } from '../db';
import { Prisma } from '../generated/prisma/client';
import type { SeatHoldPurpose } from '@ticketing/contracts';
import { UNRECORDED_GRACE_MS, type HeldSeat, type SeatHoldStatus, type TicketingSeatHold } from '../domain/seat-hold';

interface SeatHoldRow {
  id: string;
  account_id: string;
  mode: string;
  event_id: string;
  seats: unknown;
  status: string;
  expires_at: Date;
  created_at: Date;
  released_at: Date | null;
  issuance_id: string | null;
  taken_by: string | null;
  taken_until: Date | null;
  purpose: string;
  admission_entry_id: string | null;
}

const toSeatHold = ({ account_id: _account, seats, status, purpose, ...rest }: SeatHoldRow): TicketingSeatHold => ({
  ...rest,
  seats: seats as HeldSeat[],
  status: status as SeatHoldStatus,
  purpose: purpose as SeatHoldPurpose,
});

/** A hold that was just ended (released or expired), with its tenant, for the message that frees its seats. */
export interface EndedSeatHold {
  hold: TicketingSeatHold;
  tenant: Tenant;
}

function ended(row: SeatHoldRow): EndedSeatHold {
  if (!isMode(row.mode)) throw new Error(`seat hold ${row.id} has an unknown mode: ${row.mode}`);
  return { hold: toSeatHold(row), tenant: { accountId: row.account_id, mode: row.mode } };
}

/**
 * Seat holds and the seat claims they make (decision 0033). A claim is one row per taken seat
 * keyed by (event, seat): PostgreSQL, not this code, refuses a second claim of a seat. Every
 * method that ends holds also deletes their claims in the same statement.
 */
export class SeatHoldRepository {
  constructor(private readonly db: TicketingDb) {}

  /**
   * Records the hold and claims each seat that is free, in one statement, and answers the seats
   * it claimed. Fewer than asked means some were taken: the caller must roll back. Null, with
   * nothing written, when the hold's admission already holds seats in another active hold.
   */
  async create(tenant: Tenant, hold: Omit<TicketingSeatHold, 'mode' | 'status' | 'released_at' | 'issuance_id' | 'taken_by' | 'taken_until'>): Promise<{ hold: TicketingSeatHold; claimed: string[] } | null> {
    const seatIds = hold.seats.map((seat) => seat.id);
    const tierIds = hold.seats.map((seat) => seat.tier_id);
    const rows = await this.db.$queryRaw<Array<SeatHoldRow & { claimed: string[] }>>`
      WITH hold AS (
        INSERT INTO seat_holds (id, account_id, mode, event_id, seats, status, expires_at, created_at, purpose, admission_entry_id)
        VALUES (${hold.id}, ${tenant.accountId}, ${tenant.mode}, ${hold.event_id}, ${JSON.stringify(hold.seats)}::jsonb, 'active', ${hold.expires_at}, ${hold.created_at}, ${hold.purpose},
                ${hold.admission_entry_id}::text)
        ON CONFLICT (admission_entry_id) WHERE status = 'active' DO NOTHING
        RETURNING *),
      claimed AS (
        INSERT INTO seat_claims (event_id, seat_id, account_id, mode, tier_id, hold_id)
        SELECT hold.event_id, seat.id, hold.account_id, hold.mode, seat.tier_id, hold.id
          FROM hold, unnest(${seatIds}::text[], ${tierIds}::text[]) AS seat (id, tier_id)
         -- One order for every hold: two holds claiming shared seats in opposite orders would deadlock.
         ORDER BY seat.id
        ON CONFLICT (event_id, seat_id) DO NOTHING
        RETURNING seat_id)
      SELECT hold.*, ARRAY(SELECT seat_id FROM claimed) AS claimed FROM hold`;
    if (!rows[0]) return null;
    const { claimed, ...row } = rows[0];
    return { hold: toSeatHold(row), claimed };
  }

  /** The active hold an admission made, if any: one at a time (decision 0034). */
  async activeOfAdmission(tenant: Tenant, admissionEntryId: string): Promise<TicketingSeatHold | null> {
    const row = await this.db.seatHold.findFirst({ where: { admission_entry_id: admissionEntryId, status: 'active', account_id: tenant.accountId, mode: tenant.mode } });
    return row && toSeatHold(row);
  }

  /** The tenant's hold; with `eventId`, only if it is of that event. */
  async find(tenant: Tenant, id: string, eventId?: string): Promise<TicketingSeatHold | null> {
    const row = await this.db.seatHold.findUnique({ where: { id, account_id: tenant.accountId, mode: tenant.mode, ...(eventId === undefined ? {} : { event_id: eventId }) } });
    return row && toSeatHold(row);
  }

  /**
   * Gives an active, untaken, unexpired hold to an issuance about to hold units for its seats:
   * from then on it neither expires nor releases, unless the issuance is never recorded (see
   * `expireDue`). False when the hold was no longer free.
   */
  async take(tenant: Tenant, id: string, issuanceId: string, at: Date): Promise<boolean> {
    const taken = await this.db.seatHold.updateMany({
      where: { id, account_id: tenant.accountId, mode: tenant.mode, status: 'active', taken_by: null, issuance_id: null, expires_at: { gt: at } },
      data: { taken_by: issuanceId },
    });
    return taken.count === 1;
  }

  /**
   * Gives an active, unexpired hold to the line of an order intent that will sell its seats once
   * paid (decision 0062), until `until`: meanwhile it neither expires nor releases. Taking it
   * again for the same issuance answers the same. False when the hold was no longer free.
   */
  async takeUntil(tenant: Tenant, id: string, issuanceId: string, at: Date, until: Date): Promise<boolean> {
    const taken = await this.db.seatHold.updateMany({
      where: { id, account_id: tenant.accountId, mode: tenant.mode, status: 'active', issuance_id: null, expires_at: { gt: at }, OR: [{ taken_by: null }, { taken_by: issuanceId }] },
      data: { taken_by: issuanceId, taken_until: until },
    });
    return taken.count === 1;
  }

  /**
   * Names the recorded issuance that took the hold as the one selling its seats, in the
   * transaction that records it. False when the hold is no longer its (a sweep of holds taken by
   * issuances presumed dead ended it).
   */
  async bindTaken(tenant: Tenant, id: string, issuanceId: string): Promise<boolean> {
    const bound = await this.db.seatHold.updateMany({
      where: { id, account_id: tenant.accountId, mode: tenant.mode, status: 'active', taken_by: issuanceId, issuance_id: null },
      data: { issuance_id: issuanceId },
    });
    return bound.count === 1;
  }

  /**
   * Frees a hold an issuance took, recorded or not, when that issuance is refused: nothing was
   * sold, so the buyer can use the hold again until it expires (one that expired while taken is
   * ended by the next sweep).
   */
  async letGo(tenant: Tenant, id: string, issuanceId: string): Promise<void> {
    await this.db.seatHold.updateMany({
      where: { id, account_id: tenant.accountId, mode: tenant.mode, status: 'active', taken_by: issuanceId, OR: [{ issuance_id: null }, { issuance_id: issuanceId }] },
      data: { taken_by: null, taken_until: null, issuance_id: null },
    });
  }

  /**
   * Ends an active hold as released and frees its seats, in one statement; null when it was not
   * active, or an issuance has taken it (it ends when that issuance is sold, or lets go of it).
   */
  async release(tenant: Tenant, eventId: string, id: string, at: Date): Promise<EndedSeatHold | null> {
    return this.releaseWhere(tenant, Prisma.sql`id = ${id} AND event_id = ${eventId}`, at);
  }

  /** Releases, the same way, the active hold an admission made, if any: its entry left the queue (decision 0034). */
  async releaseMadeWith(tenant: Tenant, admissionEntryId: string, at: Date): Promise<EndedSeatHold | null> {
    return this.releaseWhere(tenant, Prisma.sql`admission_entry_id = ${admissionEntryId}`, at);
  }

  private async releaseWhere(tenant: Tenant, which: Prisma.Sql, at: Date): Promise<EndedSeatHold | null> {
    const rows = await this.db.$queryRaw<SeatHoldRow[]>`
      WITH released AS (
        UPDATE seat_holds SET status = 'released', released_at = ${at}
         WHERE ${which} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND status = 'active'
           AND issuance_id IS NULL AND taken_by IS NULL
        RETURNING *),
      freed AS (DELETE FROM seat_claims c USING released WHERE c.hold_id = released.id)
      SELECT * FROM released`;
    return rows[0] ? ended(rows[0]) : null;
  }

  /**
   * Ends up to `limit` active holds, of every tenant, whose expiry has passed (only those
   * claiming one of `near.seatIds`, or made with `near.admissionEntryId`, when `near` is given)
   * and frees their seats, in one statement. Holds another transaction has locked are skipped. A
   * hold taken by an issuance that was never recorded (its process died between taking the hold
   * and recording it) ends too, once `UNRECORDED_GRACE_MS` past its expiry: by then that
   * issuance's units in catalog have lapsed as well. One taken for an order intent ends once
   * `taken_until` has passed: the order's units were given back by then.
   */
  async expireDue(at: Date, limit: number, near?: { eventId: string; seatIds: readonly string[]; admissionEntryId: string | null }): Promise<EndedSeatHold[]> {
    const unrecordedBefore = new Date(at.getTime() - UNRECORDED_GRACE_MS);
    const rows = await this.db.$queryRaw<SeatHoldRow[]>`
      WITH due AS (
        SELECT h.id FROM seat_holds h
         WHERE h.status = 'active' AND h.issuance_id IS NULL AND h.expires_at <= ${at}
           AND (h.taken_by IS NULL OR (h.taken_until IS NULL AND h.expires_at <= ${unrecordedBefore}) OR h.taken_until <= ${at})
           AND (${near === undefined} OR h.admission_entry_id = ${near?.admissionEntryId ?? null}::text OR h.id IN (
             SELECT c.hold_id FROM seat_claims c WHERE c.event_id = ${near?.eventId ?? ''} AND c.seat_id = ANY(${[...(near?.seatIds ?? [])]}::text[])))
         ORDER BY h.expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
      expired AS (
        UPDATE seat_holds h SET status = 'expired', released_at = ${at} FROM due WHERE h.id = due.id
        RETURNING h.*),
      freed AS (DELETE FROM seat_claims c USING expired WHERE c.hold_id = expired.id)
      SELECT * FROM expired`;
    return rows.map(ended);
  }
}
