import type { CatalogEventFacts, CatalogTierFacts } from '@ticketing/contracts';
import type { CatalogEvent } from './event';
import type { CatalogTier } from './tier';

/** What other services learn about an event when it changes. */
export function toEventFacts(event: CatalogEvent): CatalogEventFacts {
  return {
    event_id: event.id,
    name: event.name,
    status: event.status,
    starts_at: event.starts_at.toISOString(),
    ends_at: event.ends_at?.toISOString() ?? null,
    currency: event.currency,
    organization_id: event.organization_id,
    waiting_room: event.waiting_room,
  };
}

export function toTierFacts(tier: CatalogTier): CatalogTierFacts {
  return {
    tier_id: tier.id,
    event_id: tier.event_id,
    name: tier.name,
    price: tier.price,
    currency: tier.currency,
    capacity: tier.capacity,
    sales_start_at: tier.sales_start_at?.toISOString() ?? null,
    sales_end_at: tier.sales_end_at?.toISOString() ?? null,
    min_per_order: tier.min_per_order,
    max_per_order: tier.max_per_order,
    seated: tier.seated,
    rank: tier.rank,
  };
}
