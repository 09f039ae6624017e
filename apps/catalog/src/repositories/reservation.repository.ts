import { isMode, type Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { CatalogDb } from '../db';
import type { CatalogReservation, ReservationKind, ReservationRequest, ReservationStatus, ReservationView, ReturnRequest } from '../domain/reservation';
import { eventStatus, type EventStatus } from '../domain/event-status';
import type { CatalogTier } from '../domain/tier';
import { tierFromJson, type TierJson } from './tier.repository';

const reservationColumns = {
  id: true,
  mode: true,
  event_id: true,
  tier_id: true,
  kind: true,
  quantity: true,
  status: true,
  expires_at: true,
  created_at: true,
  committed_at: true,
  released_at: true,
} as const;

export type ReturnOutcome =
  | { outcome: 'returned' | 'already_returned'; returned: number; tier: CatalogTier }
  | { outcome: 'not_committed' | 'exceeds'; reservationStatus: ReservationStatus; returned: number }
  | { outcome: 'id_reused' | 'reservation_missing' };

export type ReserveOutcome =
  | { outcome: 'taken'; tier: CatalogTier; waitingRoomEnabled: boolean }
  | { outcome: 'refused'; tier: CatalogTier; event: { status: EventStatus; startsAt: Date } }
  | { outcome: 'not_claimed' };
type ReservationRow = Omit<CatalogReservation, 'kind' | 'status'> & { kind: string; status: string };

function tenantOfRow(row: { account_id: string; mode: string }): Tenant {
  if (!isMode(row.mode)) throw new Error(`a reservation of account ${row.account_id} has the unknown mode '${row.mode}'`);
  return { accountId: row.account_id, mode: row.mode };
}

const toReservation = (row: ReservationRow): CatalogReservation => ({ ...row, kind: row.kind as ReservationKind, status: row.status as ReservationStatus });

/**
 * Reservations and the tier counters they move (decision 0029). Every write to `held` and `sold`
 * is SQL here, because each is a conditional update Prisma cannot express, and each is one
 * statement that changes the reservation rows and the counters together, so they always agree
 * and a tier's row is never locked across a round trip. Settlements, returns and the sweeper
 * lock a reservation row, then its tier row; taking reservations locks the tier row, then writes
 * new reservation rows, which no other statement holds.
 */
export class ReservationRepository {
  constructor(private readonly db: CatalogDb) {}

  /**
   * Takes the reservations of one tier of one event in one statement (the
   * `reserve_inventory_batch` function, decision 0036), deciding each in order against the
   * counters the earlier ones left: claims its id and holds its units if the tenant has the tier
   * in that event, the id is new and every rule holds at its instant: enough units left, and for
   * a sale a published event, an open sales window and a quantity within the per-order limits;
   * for a comp, an event not yet canceled or completed. A refusal answers the tier and event
   * status it was refused on, so explaining it costs no further query. Units taken come with
   * whether the event's waiting room is enabled, read with its status (decision 0034). One
   * outcome per request.
   */
  async reserveAll(tenant: Tenant, eventId: string, tierId: string, requests: ReadonlyArray<{ request: ReservationRequest; at: Date }>): Promise<ReserveOutcome[]> {
    const column = <T>(pick: (entry: { request: ReservationRequest; at: Date }) => T) => requests.map(pick);
    const rows = await this.db.$queryRaw<Array<{ ordinal: number; outcome: ReserveOutcome['outcome']; event_status: string | null; event_starts_at: Date | null; tier: TierJson | null; waiting_room_enabled: boolean | null }>>`
      SELECT ordinal, outcome, event_status, event_starts_at, tier, waiting_room_enabled FROM reserve_inventory_batch(${tenant.accountId}, ${tenant.mode}, ${eventId}, ${tierId},
        ${column((entry) => entry.request.id)}::text[], ${column((entry) => entry.request.kind)}::text[], ${column((entry) => entry.request.quantity)}::int[],
        ${column((entry) => entry.request.expires_at)}::timestamptz[], ${column((entry) => entry.at)}::timestamptz[])`;
    if (rows.length !== requests.length) throw new Error(`reserve_inventory_batch answered ${rows.length} rows for ${requests.length} reservations`);
    return rows
      .sort((a, b) => a.ordinal - b.ordinal)
      .map((row): ReserveOutcome => {
        if (row.outcome === 'not_claimed') return { outcome: 'not_claimed' };
        const tier = tierFromJson(row.tier!);
        return row.outcome === 'taken' ? { outcome: 'taken', tier, waitingRoomEnabled: row.waiting_room_enabled! } : { outcome: 'refused', tier, event: { status: eventStatus(row.event_status!), startsAt: row.event_starts_at! } };
      });
  }

  /**
   * Releases a held reservation and gives its units back in one statement. Answers the
   * reservation and its tier after the change, or null when the reservation is not the tenant's
   * or no longer held (a concurrent settlement waits on the row, then finds it settled).
   */
  async release(tenant: Tenant, id: string, at: Date): Promise<ReservationView | null> {
    const rows = await this.db.$queryRaw<Array<ReservationRow & { tier: TierJson }>>`
      WITH released AS (
        UPDATE inventory_reservations SET status = 'released', released_at = ${at}::timestamptz
         WHERE id = ${id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND status = 'held'
        RETURNING id, mode, event_id, tier_id, kind, quantity, status, expires_at, created_at, committed_at, released_at),
      moved AS (
        UPDATE tiers t SET held = t.held - r.quantity, updated_at = ${at}
          FROM released r WHERE t.id = r.tier_id
        RETURNING t.*)
      SELECT released.*, tier_json(moved, e.currency) AS tier
        FROM released JOIN moved ON moved.id = released.tier_id JOIN events e ON e.id = moved.event_id`;
    const row = rows[0];
    return row ? { reservation: toReservation(row), tier: tierFromJson(row.tier) } : null;
  }

  /**
   * Commits every held reservation of the tenant among `ids` and moves their units from held to
   * sold, in one statement (the `commit_reservations` function, decision 0039). Answers each
   * reservation it committed, by id, with its tier after the whole batch; ids not held by the
   * tenant (unknown, already settled) are absent.
   */
  async commitAll(tenant: Tenant, ids: readonly string[], at: Date): Promise<Map<string, ReservationView>> {
    const rows = await this.db.$queryRaw<Array<ReservationRow & { tier: TierJson }>>`
      SELECT * FROM commit_reservations(${tenant.accountId}, ${tenant.mode}, ${ids}::text[], ${at}::timestamptz)`;
    return new Map(rows.map(({ tier, ...row }) => [row.id, { reservation: toReservation(row), tier: tierFromJson(tier) }]));
  }

  /**
   * Releases up to `limit` held reservations whose expiry has passed and gives their units back
   * to their tiers, in one statement. Rows another sweeper or a settlement has locked are
   * skipped, and tiers are locked in id order, so concurrent sweepers neither wait on each other
   * nor deadlock. Returns how many it released, and the tenants whose tiers it changed.
   */
  async releaseExpired(at: Date, limit: number): Promise<{ released: number; tenants: Tenant[] }> {
    const rows = await this.db.$queryRaw<Array<{ account_id: string; mode: string; released: number }>>`
      WITH expired AS (
        SELECT id FROM inventory_reservations WHERE status = 'held' AND expires_at <= ${at}
         ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
      released AS (
        UPDATE inventory_reservations r SET status = 'released', released_at = ${at}
          FROM expired WHERE r.id = expired.id
        RETURNING r.tier_id, r.quantity, r.account_id, r.mode),
      per_tier AS (SELECT tier_id, sum(quantity)::int AS quantity FROM released GROUP BY tier_id),
      locked_tiers AS (
        SELECT t.id, per_tier.quantity FROM tiers t JOIN per_tier ON per_tier.tier_id = t.id
         ORDER BY t.id FOR UPDATE OF t),
      given_back AS (
        UPDATE tiers t SET held = t.held - locked_tiers.quantity, updated_at = ${at}
          FROM locked_tiers WHERE t.id = locked_tiers.id
        RETURNING t.id)
      SELECT account_id, mode, count(*)::int AS released FROM released GROUP BY account_id, mode`;
    return {
      released: rows.reduce((sum, row) => sum + row.released, 0),
      tenants: rows.map((row) => tenantOfRow(row)),
    };
  }

  /**
   * Gives sold units of a committed reservation back to its tier under the return's id, in one
   * statement (the `return_inventory` function), never more than the reservation sold. The same
   * return again changes nothing and answers `already_returned`.
   */
  async returnUnits(tenant: Tenant, request: ReturnRequest, at: Date): Promise<ReturnOutcome> {
    const [row] = await this.db.$queryRaw<Array<{ outcome: ReturnOutcome['outcome']; reservation_status: string | null; returned: number | null; tier: TierJson | null }>>`
      SELECT outcome, reservation_status, returned, tier FROM return_inventory(${request.id}, ${tenant.accountId}, ${tenant.mode}, ${request.reservation_id},
        ${request.quantity}::int, ${at}::timestamptz)`;
    if (!row) throw new Error('return_inventory answered no row');
    switch (row.outcome) {
      case 'returned':
      case 'already_returned':
        return { outcome: row.outcome, returned: row.returned!, tier: tierFromJson(row.tier!) };
      case 'not_committed':
      case 'exceeds':
        return { outcome: row.outcome, reservationStatus: row.reservation_status as ReservationStatus, returned: row.returned! };
      case 'id_reused':
      case 'reservation_missing':
        return { outcome: row.outcome };
    }
  }

  /**
   * Records a reservation that was never made as released, under the id its caller gave it up
   * with, so that a reserve under that id arriving later holds nothing (its insert meets this
   * row). False, with nothing written, when the id is taken (the reservation was made, by now) or
   * the tenant has no such tier. Inserting waits for a reserve of the same id still committing.
   */
  async recordWithdrawn(tenant: Tenant, withdrawal: { id: string; tier_id: string; quantity: number; kind: ReservationKind }, at: Date): Promise<boolean> {
    const inserted = await this.db.$executeRaw`
      INSERT INTO inventory_reservations (id, account_id, mode, event_id, tier_id, kind, quantity, status, expires_at, created_at, released_at)
      SELECT ${withdrawal.id}, t.account_id, t.mode, t.event_id, t.id, ${withdrawal.kind}, ${withdrawal.quantity}::int, 'released', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
        FROM tiers t WHERE t.id = ${withdrawal.tier_id} AND t.account_id = ${tenant.accountId} AND t.mode = ${tenant.mode}
      ON CONFLICT (id) DO NOTHING`;
    return inserted === 1;
  }

  async find(tenant: Tenant, id: string): Promise<CatalogReservation | null> {
    const row = await this.db.inventoryReservation.findUnique({ where: { id, ...tenantScope(tenant) }, select: reservationColumns });
    return row && toReservation(row);
  }
}
