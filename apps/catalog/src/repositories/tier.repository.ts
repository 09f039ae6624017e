import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { CatalogDb } from '../db';
import type { CatalogTier, TierSettings } from '../domain/tier';

/** A tier's own columns; its currency is its event's. */
export const tierScalarColumns = {
  id: true,
  mode: true,
  event_id: true,
  name: true,
  price: true,
  capacity: true,
  held: true,
  sold: true,
  sales_start_at: true,
  sales_end_at: true,
  min_per_order: true,
  max_per_order: true,
  seated: true,
  rank: true,
  created_at: true,
  updated_at: true,
} as const;

export const tierColumns = { ...tierScalarColumns, event: { select: { currency: true } } } as const;

/** Prisma keeps prices as BigInt; every price fits a double exactly (domain/tier MAX_PRICE). */
export function toCatalogTier<T extends { price: bigint; event: { currency: string } }>({ price, event, ...rest }: T): Omit<T, 'price' | 'event'> & { price: number; currency: string } {
  return { ...rest, price: Number(price), currency: event.currency };
}

/** A tier as the SQL function tier_json writes it: timestamps as text. */
export type TierJson = { [K in keyof CatalogTier]: CatalogTier[K] extends Date ? string : CatalogTier[K] extends Date | null ? string | null : CatalogTier[K] };

export function tierFromJson(json: TierJson): CatalogTier {
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return {
    ...json,
    price: Number(json.price),
    sales_start_at: date(json.sales_start_at),
    sales_end_at: date(json.sales_end_at),
    created_at: new Date(json.created_at),
    updated_at: new Date(json.updated_at),
  };
}

/** Tiers of one tenant's events. Every method takes the tenant; nothing here can see another's rows. */
export class TierRepository {
  constructor(private readonly db: CatalogDb) {}

  async create(tenant: Tenant, eventId: string, settings: TierSettings): Promise<CatalogTier> {
    const row = await this.db.tier.create({
      data: { id: newId('tier'), ...tenantScope(tenant), event_id: eventId, ...settings, price: BigInt(settings.price) },
      select: tierColumns,
    });
    return toCatalogTier(row);
  }

  async findById(tenant: Tenant, eventId: string, id: string): Promise<CatalogTier | null> {
    const row = await this.db.tier.findUnique({ where: { id, event_id: eventId, ...tenantScope(tenant) }, select: tierColumns });
    return row && toCatalogTier(row);
  }

  /** The tenant's tiers among `ids`, whichever event they belong to. */
  async findByIds(tenant: Tenant, ids: readonly string[]): Promise<Map<string, CatalogTier>> {
    const rows = await this.db.tier.findMany({ where: { id: { in: [...ids] }, ...tenantScope(tenant) }, select: tierColumns });
    return new Map(rows.map((row) => [row.id, toCatalogTier(row)]));
  }

  /** A tier of the event that sells until the event starts (no sales end of its own) and whose sales start at or after `at`, if any. */
  async firstOpeningAtOrAfter(tenant: Tenant, eventId: string, at: Date): Promise<CatalogTier | null> {
    const row = await this.db.tier.findFirst({ where: { event_id: eventId, sales_end_at: null, sales_start_at: { gte: at }, ...tenantScope(tenant) }, select: tierColumns, orderBy: { sales_start_at: 'asc' } });
    return row && toCatalogTier(row);
  }

  /** The event's seated tiers, the ones seats may be mapped to. */
  async seatedTiers(tenant: Tenant, eventId: string): Promise<CatalogTier[]> {
    const rows = await this.db.tier.findMany({ where: { event_id: eventId, seated: true, ...tenantScope(tenant) }, select: tierColumns });
    return rows.map(toCatalogTier);
  }

  /**
   * Sets the capacity only if it still covers what is held and sold at this instant: one
   * conditional update on the row that also carries the counters, so no concurrent hold or
   * sale can slip in between the check and the write. False when it would not.
   */
  async setCapacity(tenant: Tenant, id: string, capacity: number): Promise<boolean> {
    const updated = await this.db.$executeRaw`UPDATE tiers SET capacity = ${capacity}, updated_at = now()
      WHERE id = ${id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND held + sold <= ${capacity}`;
    return updated === 1;
  }

  async update(tenant: Tenant, id: string, changes: Partial<Omit<TierSettings, 'capacity' | 'seated'>>): Promise<void> {
    const { price, ...rest } = changes;
    await this.db.tier.updateMany({ where: { id, ...tenantScope(tenant) }, data: { ...rest, ...(price === undefined ? {} : { price: BigInt(price) }) } });
  }

  pages(tenant: Tenant, eventId: string): PageSource<CatalogTier> {
    const scope = { event_id: eventId, ...tenantScope(tenant) };
    return {
      exists: async (id) => (await this.db.tier.count({ where: { id, ...scope } })) > 0,
      fetch: async (take, beforeId) =>
        (
          await this.db.tier.findMany({
            where: { ...scope, ...idsBefore(beforeId) },
            orderBy: { id: 'desc' },
            take,
            select: tierColumns,
          })
        ).map(toCatalogTier),
    };
  }
}
