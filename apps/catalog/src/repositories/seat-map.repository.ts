import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { CatalogDb } from '../db';
import type { SeatLayout, SeatStatus } from '../domain/seat-map';

export interface StoredSeatMap {
  layout: SeatLayout;
  updated_at: Date;
}

/** Namespace of the advisory locks that order seat locating against seat map changes (the event's id hash is the other half). */
const SEAT_MAP_LOCK_SPACE = 14;

/**
 * Seat maps and seat statuses of one tenant's events. Every method that reads or writes a
 * tenant's rows takes the tenant; the locks and seat locates are keyed by the event alone, whose
 * id the caller has already found in its tenant.
 */
export class SeatMapRepository {
  constructor(private readonly db: CatalogDb) {}

  /** Stores the layout in place of the event's previous one; answers when that happened. */
  async replace(tenant: Tenant, eventId: string, layout: SeatLayout, seatCount: number): Promise<Date> {
    const fields = { layout: layout as object, seat_count: seatCount };
    const stored = await this.db.seatMap.upsert({
      where: { event_id: eventId },
      create: { event_id: eventId, ...tenantScope(tenant), ...fields },
      update: fields,
      select: { updated_at: true },
    });
    return stored.updated_at;
  }

  async find(tenant: Tenant, eventId: string): Promise<StoredSeatMap | null> {
    const row = await this.db.seatMap.findUnique({ where: { event_id: eventId, ...tenantScope(tenant) }, select: { layout: true, updated_at: true } });
    return row && { layout: row.layout as unknown as SeatLayout, updated_at: row.updated_at };
  }

  /** Whether the event has a seat map, without reading its layout. */
  async exists(tenant: Tenant, eventId: string): Promise<boolean> {
    return (await this.db.seatMap.count({ where: { event_id: eventId, ...tenantScope(tenant) } })) > 0;
  }

  /**
   * The event's seats that are held or sold (every other seat is available), and when a seat last
   * changed status here, made available again included; null if none ever did.
   */
  async seatStatuses(tenant: Tenant, eventId: string): Promise<{ unavailable: Map<string, SeatStatus>; changedAt: Date | null }> {
    const rows = await this.db.seatStatus.findMany({ where: { event_id: eventId, ...tenantScope(tenant) }, select: { seat_id: true, status: true, updated_at: true } });
    const unavailable = new Map(rows.filter((row) => row.status !== 'available').map((row) => [row.seat_id, row.status as SeatStatus]));
    const changedAt = rows.reduce<Date | null>((latest, row) => (latest === null || row.updated_at > latest ? row.updated_at : latest), null);
    return { unavailable, changedAt };
  }

  /**
   * Records what ticketing published about these seats at `asOf`, for each seat unless a message
   * published later already set it: Kafka delivers a topic's messages in order, but a dead letter
   * replayed, or a message redelivered after a newer one, can arrive late.
   */
  async setStatus(tenant: Tenant, eventId: string, seatIds: readonly string[], status: SeatStatus, asOf: Date): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO seat_statuses (account_id, mode, event_id, seat_id, status, status_as_of)
      SELECT ${tenant.accountId}, ${tenant.mode}, ${eventId}, seat_id, ${status}, ${asOf}
      FROM unnest(${[...seatIds]}::text[]) AS seat_id
      ON CONFLICT (event_id, seat_id) DO UPDATE SET status = EXCLUDED.status, status_as_of = EXCLUDED.status_as_of, updated_at = now()
      WHERE seat_statuses.status_as_of IS NULL OR seat_statuses.status_as_of <= EXCLUDED.status_as_of`;
  }

  /**
   * Orders this transaction against seat map changes of the event: locating seats takes the lock
   * shared (locates run side by side), a seat map change exclusively, so neither reads the other
   * half done.
   */
  async lockForLocating(eventId: string): Promise<void> {
    await this.db.$executeRaw`SELECT pg_advisory_xact_lock_shared(${SEAT_MAP_LOCK_SPACE}::int, hashtext(${eventId}))`;
  }

  async lockForChange(eventId: string): Promise<void> {
    await this.db.$executeRaw`SELECT pg_advisory_xact_lock(${SEAT_MAP_LOCK_SPACE}::int, hashtext(${eventId}))`;
  }

  /** Notes that a seat hold asked for these seats now (in seat order, so concurrent locates never deadlock). */
  async recordLocated(eventId: string, seatIds: readonly string[]): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO seat_locates (event_id, seat_id, located_at)
      SELECT ${eventId}, seat_id, now() FROM unnest(${[...seatIds]}::text[]) AS seat_id ORDER BY seat_id
      ON CONFLICT (event_id, seat_id) DO UPDATE SET located_at = excluded.located_at`;
  }

  /**
   * Seats of the event a seat hold asked for within the last `seconds`, by the database's clock
   * (one clock for every replica), after forgetting the event's older locates: they guard nothing.
   */
  async locatedWithin(eventId: string, seconds: number): Promise<Set<string>> {
    await this.db.$executeRaw`DELETE FROM seat_locates WHERE event_id = ${eventId} AND located_at < now() - make_interval(secs => ${seconds})`;
    const rows = await this.db.$queryRaw<Array<{ seat_id: string }>>`SELECT seat_id FROM seat_locates WHERE event_id = ${eventId}`;
    return new Set(rows.map((row) => row.seat_id));
  }
}
