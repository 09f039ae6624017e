import { z } from 'zod';
import { EVENT_STATUSES } from '../catalog-values';
import { defineTopic, eventTimestamp, type PayloadsOf } from './envelope';

/** Facts about an event (the thing tickets are sold for) that other services keep. */
export const catalogEventFactsSchema = z.object({
  event_id: z.string().min(1),
  name: z.string(),
  status: z.enum(EVENT_STATUSES),
  starts_at: eventTimestamp,
  ends_at: eventTimestamp.nullable(),
  currency: z.string().length(3),
  organization_id: z.string().min(1).nullable(),
  waiting_room: z.object({ enabled: z.boolean(), admission_rate_per_minute: z.number().int().positive().nullable() }),
});
export type CatalogEventFacts = z.infer<typeof catalogEventFactsSchema>;

/** Facts about a tier: its price and inventory settings (ticketing sells against them). */
export const catalogTierFactsSchema = z.object({
  tier_id: z.string().min(1),
  event_id: z.string().min(1),
  name: z.string(),
  /** Minor units of `currency`. */
  price: z.number().int().nonnegative(),
  currency: z.string().length(3),
  capacity: z.number().int().nonnegative(),
  sales_start_at: eventTimestamp.nullable(),
  sales_end_at: eventTimestamp.nullable(),
  min_per_order: z.number().int().positive(),
  max_per_order: z.number().int().positive().nullable(),
  seated: z.boolean(),
  rank: z.number().int(),
});
export type CatalogTierFacts = z.infer<typeof catalogTierFactsSchema>;

/**
 * One topic per event, keyed by the event id, so an event's changes and its tiers' changes
 * reach consumers in order. A status change is published as its own type, with the full facts.
 */
export const CATALOG_EVENT_TOPIC = defineTopic('catalog.event.v1', {
  'event.created': catalogEventFactsSchema,
  'event.updated': catalogEventFactsSchema,
  'event.published': catalogEventFactsSchema,
  'event.canceled': catalogEventFactsSchema,
  'event.completed': catalogEventFactsSchema,
  'tier.created': catalogTierFactsSchema,
  'tier.updated': catalogTierFactsSchema,
  'seatmap.updated': z.object({ event_id: z.string().min(1), seat_count: z.number().int().nonnegative() }),
});
export type CatalogEventPayloads = PayloadsOf<typeof CATALOG_EVENT_TOPIC>;

export const catalogOrganizationFactsSchema = z.object({
  organization_id: z.string().min(1),
  name: z.string(),
});
export type CatalogOrganizationFacts = z.infer<typeof catalogOrganizationFactsSchema>;

export const CATALOG_ORGANIZATION_TOPIC = defineTopic('catalog.organization.v1', {
  'organization.created': catalogOrganizationFactsSchema,
  'organization.updated': catalogOrganizationFactsSchema,
});
export type CatalogOrganizationPayloads = PayloadsOf<typeof CATALOG_ORGANIZATION_TOPIC>;
