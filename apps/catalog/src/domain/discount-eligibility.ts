import type { CatalogDiscount } from './discount';
import { unmetCondition, type TriggerCondition } from './discount-trigger';
import type { OrderLine } from './order-pricing';

/** What decides whether a discount applies to an order, apart from the discount itself. */
export interface OrderFacts {
  /** The event's currency, which every line is priced in. */
  currency: string;
  lines: readonly OrderLine[];
  /** The code the customer entered, upper case; null when none. */
  discountCode: string | null;
  customerId: string | null;
  segmentIds: ReadonlySet<string>;
  at: Date;
}

export interface DiscountCandidate {
  discount: CatalogDiscount;
  triggers: readonly TriggerCondition[];
  /** The order's customer's redemptions of this discount that still count. */
  customerRedemptions: number;
}

/** Both lists empty: everything. Otherwise a line qualifies through its event or its tier. */
export function appliesToLine(discount: Pick<CatalogDiscount, 'event_ids' | 'tier_ids'>, line: Pick<OrderLine, 'event_id' | 'tier_id'>): boolean {
  if (discount.event_ids.length === 0 && discount.tier_ids.length === 0) return true;
  return discount.event_ids.includes(line.event_id) || discount.tier_ids.includes(line.tier_id);
}

export interface Unavailability {
  code: 'discount_inactive' | 'redemption_limit_reached';
  reason: string;
}

/** Why nobody can use the discount at `at` (whatever the order), or null. */
export function unavailability(
  discount: Pick<CatalogDiscount, 'active' | 'valid_from' | 'valid_until' | 'max_redemptions' | 'times_redeemed'>,
  at: Date,
): Unavailability | null {
  if (!discount.active) return { code: 'discount_inactive', reason: 'it has been deactivated' };
  if (discount.valid_from && at < discount.valid_from) return { code: 'discount_inactive', reason: `it is valid only from ${discount.valid_from.toISOString()}` };
  if (discount.valid_until && at >= discount.valid_until) return { code: 'discount_inactive', reason: `it expired at ${discount.valid_until.toISOString()}` };
  if (discount.max_redemptions !== null && discount.times_redeemed >= discount.max_redemptions) {
    return { code: 'redemption_limit_reached', reason: 'it has been redeemed the maximum number of times' };
  }
  return null;
}

function customerRefusal(candidate: DiscountCandidate, order: OrderFacts): string | null {
  const limit = candidate.discount.max_redemptions_per_customer;
  if (limit === null) return null;
  if (order.customerId === null) return 'it is limited per customer and the order has no customer';
  return candidate.customerRedemptions >= limit ? 'the customer has already used it the maximum number of times' : null;
}

/**
 * A discount with a code applies only when the order carries that code; one without applies
 * only through its triggers, so an automatic discount with no trigger applies to nothing. In
 * both cases every trigger must hold.
 */
function entryRefusal(candidate: DiscountCandidate, order: OrderFacts): string | null {
  const { code } = candidate.discount;
  if (code !== null) return code === order.discountCode ? null : 'the order does not carry its code';
  return candidate.triggers.length > 0 ? null : 'it has no code and no trigger';
}

/** Why the discount does not apply to the order, or null when it does. */
export function whyNotApplicable(candidate: DiscountCandidate, order: OrderFacts): string | null {
  const { discount } = candidate;
  const unavailable = unavailability(discount, order.at);
  if (unavailable) return unavailable.reason;
  const refusal = customerRefusal(candidate, order) ?? entryRefusal(candidate, order);
  if (refusal) return refusal;
  if (discount.currency !== null && discount.currency !== order.currency) {
    return `it is an amount in ${discount.currency} and the order is in ${order.currency}`;
  }
  const qualifying = order.lines.filter((line) => appliesToLine(discount, line));
  if (qualifying.length === 0) return 'it does not apply to any ticket in the order';
  const facts = {
    qualifyingQuantity: qualifying.reduce((sum, line) => sum + line.quantity, 0),
    tierIds: new Set(order.lines.map((line) => line.tier_id)),
    segmentIds: order.segmentIds,
    at: order.at,
  };
  for (const trigger of candidate.triggers) {
    const unmet = unmetCondition(trigger, facts);
    if (unmet) return unmet;
  }
  return null;
}
