import type { Mode } from '@ticketing/auth';
import type { catalogV1 } from '@ticketing/contracts';
import type { CatalogDiscount } from '../domain/discount';
import type { RedemptionResult } from '../domain/discount-redemption';
import type { CatalogDiscountTrigger, TriggerCondition, TriggerConditionInput } from '../domain/discount-trigger';
import type { QuoteOrderResult } from '../usecases/quote-order/order-pricing';

/** proto3 has no null: an unset text field is empty and an unset number is 0 (docs/decisions/0008). */
const text = (value: string | null) => value ?? '';
const time = (value: Date | null) => value?.toISOString() ?? '';

export function toDiscountMessage(discount: CatalogDiscount): catalogV1.Discount {
  return {
    id: discount.id,
    livemode: discount.mode === 'live',
    code: text(discount.code),
    percent_off: discount.percent_off ?? 0,
    amount_off: discount.amount_off ?? 0,
    currency: text(discount.currency),
    applies_to: { event_ids: discount.event_ids, tier_ids: discount.tier_ids },
    valid_from: time(discount.valid_from),
    valid_until: time(discount.valid_until),
    max_redemptions: discount.max_redemptions ?? 0,
    max_redemptions_per_customer: discount.max_redemptions_per_customer ?? 0,
    times_redeemed: discount.times_redeemed,
    active: discount.active,
    created_at: discount.created_at.toISOString(),
    updated_at: discount.updated_at.toISOString(),
  };
}

function toConditionMessage(condition: TriggerCondition): catalogV1.DiscountTrigger['condition'] {
  switch (condition.kind) {
    case 'min_quantity':
      return { $case: 'min_quantity', value: { quantity: condition.quantity } };
    case 'purchase_window':
      return { $case: 'purchase_window', value: { starts_at: time(condition.starts_at), ends_at: time(condition.ends_at) } };
    case 'customer_segment':
      return { $case: 'customer_segment', value: { segment_id: condition.segment_id } };
    case 'tier_bundle':
      return { $case: 'tier_bundle', value: { tier_ids: condition.tier_ids } };
  }
}

export function toTriggerMessage(trigger: CatalogDiscountTrigger): catalogV1.DiscountTrigger {
  return {
    id: trigger.id,
    livemode: trigger.mode === 'live',
    discount_id: trigger.discount_id,
    created_at: trigger.created_at.toISOString(),
    condition: toConditionMessage(trigger.condition),
  };
}

export function toConditionInput(condition: catalogV1.CreateDiscountTriggerRequest['condition']): TriggerConditionInput | undefined {
  switch (condition?.$case) {
    case undefined:
      return undefined;
    case 'min_quantity':
      return { kind: 'min_quantity', quantity: condition.value.quantity };
    case 'purchase_window':
      return { kind: 'purchase_window', starts_at: condition.value.starts_at, ends_at: condition.value.ends_at };
    case 'customer_segment':
      return { kind: 'customer_segment', segment_id: condition.value.segment_id };
    case 'tier_bundle':
      return { kind: 'tier_bundle', tier_ids: condition.value.tier_ids };
  }
}

export function toQuoteMessage(quote: QuoteOrderResult, mode: Mode): catalogV1.Quote {
  return {
    livemode: mode === 'live',
    event_id: quote.event_id,
    currency: quote.currency,
    lines: quote.lines,
    subtotal: quote.subtotal,
    discount_amount: quote.discount_amount,
    total: quote.total,
    discount: quote.discount ? toDiscountMessage(quote.discount) : undefined,
    quoted_at: quote.quoted_at.toISOString(),
    depends_on_customer: quote.depends_on_customer,
  };
}

export function toRedemptionMessage({ redemption, times_redeemed }: RedemptionResult): catalogV1.DiscountRedemption {
  return {
    livemode: redemption.mode === 'live',
    discount_id: redemption.discount_id,
    order_id: redemption.order_id,
    customer_id: text(redemption.customer_id),
    redeemed_at: redemption.redeemed_at.toISOString(),
    released_at: time(redemption.released_at),
    times_redeemed,
  };
}
