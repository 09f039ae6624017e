import { z } from 'zod';
import { defineTopic, eventTimestamp, type PayloadsOf } from './envelope';

/** Facts about a discount that other services keep (null where the discount leaves it open). */
export const catalogDiscountFactsSchema = z.object({
  discount_id: z.string().min(1),
  code: z.string().nullable(),
  percent_off: z.number().positive().nullable(),
  /** Minor units of `currency`. */
  amount_off: z.number().int().positive().nullable(),
  currency: z.string().length(3).nullable(),
  valid_from: eventTimestamp.nullable(),
  valid_until: eventTimestamp.nullable(),
  max_redemptions: z.number().int().positive().nullable(),
  max_redemptions_per_customer: z.number().int().positive().nullable(),
  times_redeemed: z.number().int().nonnegative(),
  active: z.boolean(),
});
export type CatalogDiscountFacts = z.infer<typeof catalogDiscountFactsSchema>;

/** A paid order counted against a discount, or given back. */
export const catalogDiscountRedemptionFactsSchema = z.object({
  discount_id: z.string().min(1),
  order_id: z.string().min(1),
  customer_id: z.string().min(1).nullable(),
  /** The discount's count after this change. */
  times_redeemed: z.number().int().nonnegative(),
});
export type CatalogDiscountRedemptionFacts = z.infer<typeof catalogDiscountRedemptionFactsSchema>;

export const catalogDiscountTriggerFactsSchema = z.object({
  discount_id: z.string().min(1),
  trigger_id: z.string().min(1),
  kind: z.enum(['min_quantity', 'purchase_window', 'customer_segment', 'tier_bundle']),
});
export type CatalogDiscountTriggerFacts = z.infer<typeof catalogDiscountTriggerFactsSchema>;

/** Keyed by discount id, so one discount's changes and redemptions stay in order. */
export const CATALOG_DISCOUNT_TOPIC = defineTopic('catalog.discount.v1', {
  'discount.created': catalogDiscountFactsSchema,
  'discount.updated': catalogDiscountFactsSchema,
  'discount.deactivated': catalogDiscountFactsSchema,
  'discount.trigger_added': catalogDiscountTriggerFactsSchema,
  'discount.trigger_removed': catalogDiscountTriggerFactsSchema,
  'discount.redeemed': catalogDiscountRedemptionFactsSchema,
  'discount.redemption_released': catalogDiscountRedemptionFactsSchema,
});
export type CatalogDiscountPayloads = PayloadsOf<typeof CATALOG_DISCOUNT_TOPIC>;
