import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { CatalogDb } from '../db';
import type { SeatLayout, SeatStatus } from '../domain/seat-map';

export interface StoredSeatMap {
  layout: SeatLayout;
  updated_at: Date;
}

/** Seat maps and seat statuses of one tenant's events. Every method takes the tenant. */
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

  /** Seats of the event that are held or sold; every other seat is available. */
  async unavailableSeats(tenant: Tenant, eventId: string): Promise<Map<string, SeatStatus>> {
    const rows = await this.db.seatStatus.findMany({ where: { event_id: eventId, ...tenantScope(tenant) }, select: { seat_id: true, status: true } });
    return new Map(rows.map((row) => [row.seat_id, row.status as SeatStatus]));
  }

  /** Records what ticketing published about these seats. */
  async setStatus(tenant: Tenant, eventId: string, seatIds: readonly string[], status: SeatStatus): Promise<void> {
    if (status === 'available') {
      await this.db.seatStatus.deleteMany({ where: { event_id: eventId, seat_id: { in: [...seatIds] }, ...tenantScope(tenant) } });
      return;
    }
    for (const seatId of seatIds) {
      await this.db.seatStatus.upsert({
        where: { event_id_seat_id: { event_id: eventId, seat_id: seatId } },
        create: { event_id: eventId, seat_id: seatId, status, ...tenantScope(tenant) },
        update: { status, updated_at: new Date() },
      });
    }
  }
}
