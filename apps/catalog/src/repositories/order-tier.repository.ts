import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { CatalogDb } from '../db';

export interface OrderTier {
  id: string;
  event_id: string;
  /** Minor units of the event's currency. */
  price: number;
}

/** What pricing an order reads: the event's currency and its tiers' current prices. */
export class OrderTierRepository {
  constructor(private readonly db: CatalogDb) {}

  async eventCurrency(tenant: Tenant, eventId: string): Promise<string | null> {
    const event = await this.db.event.findFirst({ where: { id: eventId, ...tenantScope(tenant) }, select: { currency: true } });
    return event?.currency ?? null;
  }

  /** The tenant's tiers among `ids`, whichever event they belong to. */
  async findTiers(tenant: Tenant, ids: readonly string[]): Promise<Map<string, OrderTier>> {
    const rows = await this.db.tier.findMany({ where: { id: { in: [...ids] }, ...tenantScope(tenant) }, select: { id: true, event_id: true, price: true } });
    // Every price fits a double exactly (prices are capped far below 2^53).
    return new Map(rows.map((row) => [row.id, { id: row.id, event_id: row.event_id, price: Number(row.price) }]));
  }
}
