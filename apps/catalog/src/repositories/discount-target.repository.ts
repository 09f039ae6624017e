import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { CatalogDb } from '../db';
import type { KnownTargets } from '../domain/discount-targets';

/**
 * Reads which of the given events and tiers the tenant has, and their currencies. The events are
 * locked shared until the caller's transaction ends, so a currency change (which locks the event
 * and then looks for discounts naming it) cannot pass a discount being written for the old one.
 */
export class DiscountTargetRepository {
  constructor(private readonly db: CatalogDb) {}

  async find(tenant: Tenant, ids: { event_ids: readonly string[]; tier_ids: readonly string[] }): Promise<KnownTargets> {
    const scope = tenantScope(tenant);
    const [events, tiers] = await Promise.all([
      ids.event_ids.length === 0
        ? []
        : this.db.$queryRaw<Array<{ id: string; currency: string }>>`
            SELECT id, currency FROM events
             WHERE id = ANY(${[...ids.event_ids]}::text[]) AND account_id = ${tenant.accountId} AND mode = ${tenant.mode}
             ORDER BY id FOR SHARE`,
      ids.tier_ids.length === 0
        ? []
        : this.db.tier.findMany({ where: { id: { in: [...ids.tier_ids] }, ...scope }, select: { id: true, event_id: true, event: { select: { currency: true } } } }),
    ]);
    return {
      eventCurrencies: new Map(events.map((event) => [event.id, event.currency])),
      tierCurrencies: new Map(tiers.map((tier) => [tier.id, tier.event.currency])),
      tierEvents: new Map(tiers.map((tier) => [tier.id, tier.event_id])),
    };
  }
}
