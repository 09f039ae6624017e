import type { TopicDefinition } from './envelope';

/** Facts about an event (the thing tickets are sold for) that other services keep. */
export interface CatalogEventFacts {
  event_id: string;
  name: string;
  /** "draft", "published", "canceled" or "completed". */
  status: string;
  starts_at: string;
  ends_at: string | null;
  currency: string;
  organization_id: string | null;
  waiting_room: { enabled: boolean; admission_rate_per_minute: number | null };
}

/** Facts about a tier: its price and inventory settings (ticketing sells against them). */
export interface CatalogTierFacts {
  tier_id: string;
  event_id: string;
  name: string;
  price: number;
  currency: string;
  capacity: number;
  sales_start_at: string | null;
  sales_end_at: string | null;
  min_per_order: number;
  max_per_order: number | null;
  seated: boolean;
  rank: number;
}

/**
 * One topic per event, keyed by the event id, so an event's changes and its tiers' changes
 * reach consumers in order. A status change is published as its own type, with the full facts.
 */
export interface CatalogEventPayloads extends Record<string, unknown> {
  'event.created': CatalogEventFacts;
  'event.updated': CatalogEventFacts;
  'event.published': CatalogEventFacts;
  'event.canceled': CatalogEventFacts;
  'event.completed': CatalogEventFacts;
  'tier.created': CatalogTierFacts;
  'tier.updated': CatalogTierFacts;
  'seatmap.updated': { event_id: string; seat_count: number };
}

export const CATALOG_EVENT_TOPIC: TopicDefinition<CatalogEventPayloads> = {
  name: 'catalog.event.v1',
  types: ['event.created', 'event.updated', 'event.published', 'event.canceled', 'event.completed', 'tier.created', 'tier.updated', 'seatmap.updated'],
};

export interface CatalogOrganizationFacts {
  organization_id: string;
  name: string;
}

export interface CatalogOrganizationPayloads extends Record<string, unknown> {
  'organization.created': CatalogOrganizationFacts;
  'organization.updated': CatalogOrganizationFacts;
}

export const CATALOG_ORGANIZATION_TOPIC: TopicDefinition<CatalogOrganizationPayloads> = {
  name: 'catalog.organization.v1',
  types: ['organization.created', 'organization.updated'],
};
