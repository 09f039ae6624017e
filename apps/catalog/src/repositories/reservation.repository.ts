import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { CatalogDb } from '../db';
import type { CatalogReservation, ReservationKind, ReservationRequest, ReservationStatus, Settlement } from '../domain/reservation';
import type { CatalogTier } from '../domain/tier';

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

type TierRow = Omit<CatalogTier, 'price'> & { price: bigint };

/**
 * Reservations and the tier counters they move (decision 0029). Every write to `held` and `sold`
 * is SQL here, because each is a conditional update Prisma cannot express; callers that run
 * two of them together do so in one transaction, so the rows and the counters always agree.
 * Lock order is always the reservation row, then its tier row.
 */
export class ReservationRepository {
  constructor(private readonly db: CatalogDb) {}

  /**
   * Records the reservation as held, if the tenant has the tier in that event and the id is
   * new. False otherwise. A concurrent claim of the same id waits on the primary key until the
   * first one commits or rolls back.
   */
  async claim(tenant: Tenant, request: ReservationRequest, at: Date): Promise<boolean> {
    const inserted = await this.db.$executeRaw`
      INSERT INTO inventory_reservations (id, account_id, mode, event_id, tier_id, kind, quantity, status, expires_at, created_at)
      SELECT ${request.id}, account_id, mode, event_id, id, ${request.kind}, ${request.quantity}, 'held', ${request.expires_at}, ${at}
        FROM tiers WHERE id = ${request.tier_id} AND event_id = ${request.event_id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode}
      ON CONFLICT (id) DO NOTHING`;
    return inserted === 1;
  }

  /**
   * Adds the quantity to the tier's `held` only if every rule holds at `at`: enough units left,
   * and for a sale a published event, an open sales window and a quantity within the per-order
   * limits; for a comp, an event not yet canceled or completed. The tier after the change, or
   * null when refused. The row lock queues concurrent takers of the tier here.
   */
  async take(tenant: Tenant, request: ReservationRequest, at: Date): Promise<CatalogTier | null> {
    const rows = await this.db.$queryRaw<Array<TierRow>>`
      UPDATE tiers t SET held = t.held + ${request.quantity}, updated_at = ${at}
        FROM events e
       WHERE t.id = ${request.tier_id} AND t.event_id = ${request.event_id} AND t.account_id = ${tenant.accountId} AND t.mode = ${tenant.mode}
         AND e.id = t.event_id
         AND t.held + t.sold + ${request.quantity} <= t.capacity
         AND (e.status = 'published' OR (e.status = 'draft' AND ${request.kind} = 'comp'))
         AND (${request.kind} = 'comp' OR (
               (t.sales_start_at IS NULL OR t.sales_start_at <= ${at}) AND (t.sales_end_at IS NULL OR t.sales_end_at > ${at})
               AND ${request.quantity} >= t.min_per_order AND (t.max_per_order IS NULL OR ${request.quantity} <= t.max_per_order)))
      RETURNING t.id, t.mode, t.event_id, t.name, t.price, e.currency, t.capacity, t.held, t.sold, t.sales_start_at, t.sales_end_at,
                t.min_per_order, t.max_per_order, t.seated, t.rank, t.created_at, t.updated_at`;
    const row = rows[0];
    return row ? { ...row, price: Number(row.price) } : null;
  }

  /**
   * Settles a held reservation and moves its units in one statement: held → sold when
   * committed, held → available when released. False when the reservation is not the tenant's
   * or no longer held (a concurrent settlement waits on the row, then finds it settled).
   */
  async settle(tenant: Tenant, id: string, settlement: Settlement, at: Date): Promise<boolean> {
    const moved = await this.db.$executeRaw`
      WITH settled AS (
        UPDATE inventory_reservations
           SET status = ${settlement}::text,
               committed_at = CASE WHEN ${settlement}::text = 'committed' THEN ${at}::timestamptz END,
               released_at = CASE WHEN ${settlement}::text = 'released' THEN ${at}::timestamptz END
         WHERE id = ${id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND status = 'held'
        RETURNING tier_id, quantity)
      UPDATE tiers t
         SET held = t.held - s.quantity,
             sold = t.sold + CASE WHEN ${settlement}::text = 'committed' THEN s.quantity ELSE 0 END,
             updated_at = ${at}
        FROM settled s WHERE t.id = s.tier_id`;
    return moved === 1;
  }

  /**
   * Releases up to `limit` held reservations whose expiry has passed and gives their units back
   * to their tiers, in one statement. Rows another sweeper or a settlement has locked are
   * skipped, and tiers are locked in id order, so concurrent sweepers neither wait on each other
   * nor deadlock. Returns how many it released.
   */
  async releaseExpired(at: Date, limit: number): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ released: number }>>`
      WITH expired AS (
        SELECT id FROM inventory_reservations WHERE status = 'held' AND expires_at <= ${at}
         ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
      released AS (
        UPDATE inventory_reservations r SET status = 'released', released_at = ${at}
          FROM expired WHERE r.id = expired.id
        RETURNING r.tier_id, r.quantity),
      per_tier AS (SELECT tier_id, sum(quantity)::int AS quantity FROM released GROUP BY tier_id),
      locked_tiers AS (
        SELECT t.id, per_tier.quantity FROM tiers t JOIN per_tier ON per_tier.tier_id = t.id
         ORDER BY t.id FOR UPDATE OF t),
      given_back AS (
        UPDATE tiers t SET held = t.held - locked_tiers.quantity, updated_at = ${at}
          FROM locked_tiers WHERE t.id = locked_tiers.id
        RETURNING t.id)
      SELECT count(*)::int AS released FROM released`;
    return rows[0]?.released ?? 0;
  }

  async find(tenant: Tenant, id: string): Promise<CatalogReservation | null> {
    const row = await this.db.inventoryReservation.findUnique({ where: { id, ...tenantScope(tenant) }, select: reservationColumns });
    return row && { ...row, kind: row.kind as ReservationKind, status: row.status as ReservationStatus };
  }
}
