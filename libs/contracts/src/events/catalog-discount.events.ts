import type { TopicDefinition } from './envelope';

/** Facts about a discount that other services keep (null where the discount leaves it open). */
export interface CatalogDiscountFacts {
  discount_id: string;
  code: string | null;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  valid_from: string | null;
  valid_until: string | null;
  max_redemptions: number | null;
  max_redemptions_per_customer: number | null;
  times_redeemed: number;
  active: boolean;
}

/** A paid order counted against a discount, or given back. */
export interface CatalogDiscountRedemptionFacts {
  discount_id: string;
  order_id: string;
  customer_id: string | null;
  /** The discount's count after this change. */
  times_redeemed: number;
}

export interface CatalogDiscountTriggerFacts {
  discount_id: string;
  trigger_id: string;
  kind: 'min_quantity' | 'purchase_window' | 'customer_segment' | 'tier_bundle';
}

export interface CatalogDiscountPayloads extends Record<string, unknown> {
  'discount.created': CatalogDiscountFacts;
  'discount.updated': CatalogDiscountFacts;
  'discount.deactivated': CatalogDiscountFacts;
  'discount.trigger_added': CatalogDiscountTriggerFacts;
  'discount.trigger_removed': CatalogDiscountTriggerFacts;
  'discount.redeemed': CatalogDiscountRedemptionFacts;
  'discount.redemption_released': CatalogDiscountRedemptionFacts;
}

/** Keyed by discount id, so one discount's changes and redemptions stay in order. */
export const CATALOG_DISCOUNT_TOPIC: TopicDefinition<CatalogDiscountPayloads> = {
  name: 'catalog.discount.v1',
  types: [
    'discount.created',
    'discount.updated',
    'discount.deactivated',
    'discount.trigger_added',
    'discount.trigger_removed',
    'discount.redeemed',
    'discount.redemption_released',
  ],
};
