import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { CatalogDb } from '../db';
import type { CatalogEvent, EventDetails } from '../domain/event';
import { eventStatus, type EventStatus } from '../domain/event-status';
import type { Prisma } from '../generated/prisma/client';
import type { CatalogTier } from '../domain/tier';
import { tierFromJson, tierScalarColumns, toCatalogTier, type TierJson } from './tier.repository';

const eventSelect = {
  id: true,
  mode: true,
  name: true,
  description: true,
  organization_id: true,
  venue_name: true,
  venue_address: true,
  venue_city: true,
  venue_country: true,
  venue_timezone: true,
  starts_at: true,
  ends_at: true,
  category: true,
  tags: true,
  currency: true,
  status: true,
  waiting_room_enabled: true,
  waiting_room_admission_rate_per_minute: true,
  created_at: true,
  updated_at: true,
  // The tiers' currency is this event's: no join back to the event for it.
  tiers: { select: tierScalarColumns, orderBy: [{ rank: 'asc' }, { id: 'asc' }] },
  seat_map: { select: { event_id: true } },
} as const satisfies Prisma.EventSelect;

type EventRow = Prisma.EventGetPayload<{ select: typeof eventSelect }>;
type EventColumns = Omit<EventRow, 'tiers' | 'seat_map'>;

function toCatalogEvent(columns: EventColumns, tiers: CatalogTier[], has_seatmap: boolean): CatalogEvent {
  const { venue_name, venue_address, venue_city, venue_country, venue_timezone, waiting_room_enabled, waiting_room_admission_rate_per_minute, status, ...rest } = columns;
  return {
    ...rest,
    status: eventStatus(status),
    venue: venue_name === null ? null : { name: venue_name, address: venue_address, city: venue_city, country: venue_country, timezone: venue_timezone },
    waiting_room: { enabled: waiting_room_enabled, admission_rate_per_minute: waiting_room_admission_rate_per_minute },
    tiers,
    has_seatmap,
  };
}

function fromEventRow({ tiers, seat_map, ...columns }: EventRow): CatalogEvent {
  return toCatalogEvent(
    columns,
    tiers.map((tier) => toCatalogTier({ ...tier, event: { currency: columns.currency } })),
    seat_map !== null,
  );
}

/** An event as its one-statement read answers it: the tiers as the SQL function tier_json writes them. */
type EventReadRow = EventColumns & { tiers: TierJson[]; has_seatmap: boolean };

/** The columns behind the details given; details left out are left as they are. */
function toColumns(details: Partial<EventDetails>): Prisma.EventUncheckedUpdateManyInput {
  const { venue, waiting_room, ...rest } = details;
  return {
    ...rest,
    ...(venue === undefined
      ? {}
      : {
          venue_name: venue?.name ?? null,
          venue_address: venue?.address ?? null,
          venue_city: venue?.city ?? null,
          venue_country: venue?.country ?? null,
          venue_timezone: venue?.timezone ?? null,
        }),
    ...(waiting_room === undefined
      ? {}
      : { waiting_room_enabled: waiting_room.enabled, waiting_room_admission_rate_per_minute: waiting_room.admission_rate_per_minute }),
  };
}

/** What a list of events can be narrowed by; every filter combines with the others and the page. */
export interface EventFilters {
  status?: EventStatus;
  organization_id?: string;
  starts_after?: Date;
  starts_before?: Date;
  /** Case-insensitive part of the name. */
  q?: string;
}

/** LIKE treats % and _ as wildcards and \\ as their escape; a name search matches them literally. */
function literalLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function filterWhere(filters: EventFilters): Prisma.EventWhereInput {
  return {
    ...(filters.status === undefined ? {} : { status: filters.status }),
    ...(filters.organization_id === undefined ? {} : { organization_id: filters.organization_id }),
    ...(filters.starts_after === undefined && filters.starts_before === undefined ? {} : { starts_at: { gt: filters.starts_after, lt: filters.starts_before } }),
    ...(filters.q === undefined ? {} : { name: { contains: literalLikePattern(filters.q), mode: 'insensitive' } }),
  };
}

/** What a change to an event, its tiers or its seat map checks, read under the event's row lock. */
export interface LockedEvent {
  status: EventStatus;
  currency: string;
  starts_at: Date;
  ends_at: Date | null;
  /** The waiting room's rate, kept while the room is disabled. */
  admission_rate_per_minute: number | null;
}

/** Events of one tenant. Every method takes the tenant; nothing here can see another's rows. */
export class EventRepository {
  constructor(private readonly db: CatalogDb) {}

  async create(tenant: Tenant, details: EventDetails): Promise<CatalogEvent> {
    const row = await this.db.event.create({
      data: { id: newId('evt'), ...tenantScope(tenant), ...(toColumns(details) as Omit<Prisma.EventUncheckedCreateInput, 'id' | 'account_id' | 'mode'>) },
      select: eventSelect,
    });
    return fromEventRow(row);
  }

  /**
   * One event with its tiers, in one statement written out in SQL: the hottest read there is
   * (every GET of an event), and Prisma's relation query cost catalog about twice the CPU for the
   * same answer (bench/README.md). It answers what `eventSelect` does.
   */
  async findById(tenant: Tenant, id: string): Promise<CatalogEvent | null> {
    const [row] = await this.db.$queryRaw<EventReadRow[]>`
      SELECT e.id, e.mode, e.name, e.description, e.organization_id, e.venue_name, e.venue_address, e.venue_city, e.venue_country,
        e.venue_timezone, e.starts_at, e.ends_at, e.category, e.tags, e.currency, e.status, e.waiting_room_enabled,
        e.waiting_room_admission_rate_per_minute, e.created_at, e.updated_at,
        (SELECT coalesce(json_agg(tier_json(t, e.currency) ORDER BY t.rank, t.id), '[]') FROM tiers t WHERE t.event_id = e.id) AS tiers,
        EXISTS (SELECT 1 FROM seat_maps s WHERE s.event_id = e.id) AS has_seatmap
      FROM events e WHERE e.id = ${id} AND e.account_id = ${tenant.accountId} AND e.mode = ${tenant.mode}`;
    if (!row) return null;
    const { tiers, has_seatmap, ...columns } = row;
    return toCatalogEvent(columns, tiers.map(tierFromJson), has_seatmap);
  }

  /** Where the event is in its lifecycle, when it starts and whether its waiting room is enabled; null when the tenant has no such event. */
  async salesStanding(tenant: Tenant, id: string): Promise<{ status: EventStatus; startsAt: Date; waitingRoomEnabled: boolean } | null> {
    const event = await this.db.event.findUnique({ where: { id, ...tenantScope(tenant) }, select: { status: true, starts_at: true, waiting_room_enabled: true } });
    return event && { status: eventStatus(event.status), startsAt: event.starts_at, waitingRoomEnabled: event.waiting_room_enabled };
  }

  async exists(tenant: Tenant, id: string): Promise<boolean> {
    return (await this.db.event.count({ where: { id, ...tenantScope(tenant) } })) > 0;
  }

  /**
   * Locks the event's row for the rest of the transaction and tells its status and currency;
   * changes to an event, its tiers and its seat map take this lock, so they never interleave.
   * The lock is FOR NO KEY UPDATE (what an UPDATE of the row takes itself), not FOR UPDATE: a
   * reservation, holding its tier, checks its foreign key to the event with a KEY SHARE lock, which
   * FOR UPDATE would block while this transaction waits for that tier — a deadlock (decision 0029).
   * It reads the event's row alone: what else a change checks is read after it (see `hasTiers`).
   */
  async lock(tenant: Tenant, id: string): Promise<LockedEvent | null> {
    const rows = await this.db.$queryRaw<Array<Omit<LockedEvent, 'status'> & { status: string }>>`
      SELECT e.status, e.currency, e.starts_at, e.ends_at, e.waiting_room_admission_rate_per_minute AS admission_rate_per_minute
      FROM events e WHERE e.id = ${id} AND e.account_id = ${tenant.accountId} AND e.mode = ${tenant.mode} FOR NO KEY UPDATE`;
    const row = rows[0];
    return row ? { ...row, status: eventStatus(row.status) } : null;
  }

  /**
   * Whether the event has tiers. Asked after `lock`, in a statement of its own: `lock`'s statement
   * reads with the snapshot it began with, so, having waited for the lock while a new tier
   * committed, it would not see that tier (a currency change then passed beside a new tier).
   */
  async hasTiers(id: string): Promise<boolean> {
    return (await this.db.tier.count({ where: { event_id: id }, take: 1 })) > 0;
  }

  /** Applies the changes to an event the caller has locked. */
  async update(tenant: Tenant, id: string, changes: Partial<EventDetails> & { status?: EventStatus }): Promise<CatalogEvent> {
    await this.db.event.updateMany({ where: { id, ...tenantScope(tenant) }, data: toColumns(changes) });
    return (await this.findById(tenant, id))!;
  }

  pages(tenant: Tenant, filters: EventFilters = {}): PageSource<CatalogEvent> {
    const scope = tenantScope(tenant);
    return {
      exists: (id) => this.exists(tenant, id),
      fetch: async (take, beforeId) =>
        (
          await this.db.event.findMany({
            where: { ...scope, ...filterWhere(filters), ...idsBefore(beforeId) },
            orderBy: { id: 'desc' },
            take,
            select: eventSelect,
          })
        ).map(fromEventRow),
    };
  }

  /** The tenant's published events starting after `now`, soonest first, at most `limit`. */
  async upcomingPublished(tenant: Tenant, now: Date, limit: number): Promise<CatalogEvent[]> {
    const rows = await this.db.event.findMany({
      where: { ...tenantScope(tenant), status: 'published', starts_at: { gt: now } },
      orderBy: [{ starts_at: 'asc' }, { id: 'asc' }],
      take: limit,
      select: eventSelect,
    });
    return rows.map(fromEventRow);
  }
}
