import type { CatalogDiscountFacts, CatalogDiscountRedemptionFacts, CatalogDiscountTriggerFacts } from '@ticketing/contracts';
import type { CatalogDiscount } from './discount';
import type { CatalogDiscountRedemption } from './discount-redemption';
import type { CatalogDiscountTrigger } from './discount-trigger';

/** What other services learn about a discount when it changes. */
export function toDiscountFacts(discount: CatalogDiscount): CatalogDiscountFacts {
  return {
    discount_id: discount.id,
    code: discount.code,
    percent_off: discount.percent_off,
    amount_off: discount.amount_off,
    currency: discount.currency,
    valid_from: discount.valid_from?.toISOString() ?? null,
    valid_until: discount.valid_until?.toISOString() ?? null,
    max_redemptions: discount.max_redemptions,
    max_redemptions_per_customer: discount.max_redemptions_per_customer,
    times_redeemed: discount.times_redeemed,
    active: discount.active,
  };
}

export function toTriggerFacts(trigger: CatalogDiscountTrigger): CatalogDiscountTriggerFacts {
  return { discount_id: trigger.discount_id, trigger_id: trigger.id, kind: trigger.condition.kind };
}

export function toRedemptionFacts(redemption: CatalogDiscountRedemption, timesRedeemed: number): CatalogDiscountRedemptionFacts {
  return { discount_id: redemption.discount_id, order_id: redemption.order_id, customer_id: redemption.customer_id, times_redeemed: timesRedeemed };
}
