import { MAX_ORDER_ITEMS, ORDER_LIFETIME_MINUTES, validCustomerDetails, type CustomerDetails } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { integerInRange, requiredIdParam } from '@ticketing/fields';

/** What an order intent buys (decision 0062), as the client asks for it. */
export interface OrderRequest {
  event_id: string;
  items: Array<{ tier_id: string; quantity: number }>;
  customer: CustomerDetails;
  /** As the buyer typed it; catalog matches it case-insensitively. */
  discount_code: string | null;
  /** The seat hold (ticketing's) whose seats the order's line of their tier buys; null when none. */
  seat_hold_id: string | null;
}

/** One tier of an order as catalog priced it, with the issuance its units are held under. */
export interface OrderLine {
  tier_id: string;
  quantity: number;
  unit_price: number;
  /** What the line costs, discount included. */
  amount: number;
  /** Ticketing's issuance that will sell the line (iss_…): catalog holds its units under this id. */
  issuance_id: string;
  /** The seat hold whose seats the line sells; null for an unseated line. */
  seat_hold_id: string | null;
}

/** An order as the intent keeps it. */
export interface Order {
  event_id: string;
  lines: OrderLine[];
  customer: CustomerDetails;
  discount_id: string | null;
  subtotal: number;
  discount_amount: number;
}

/** Where an order intent's units are: held for it, sold to it, or given back. */
export type OrderInventory = 'held' | 'committed' | 'released';

/** How long an order intent holds its units unpaid by default; then it is canceled and they are released. */
export const DEFAULT_ORDER_LIFETIME_SECONDS = ORDER_LIFETIME_MINUTES * 60;
/**
 * Catalog holds the units this much longer than the intent lives, so a charge that began before
 * the expiry (and may take a while, or be finished by the re-driver) still finds them held.
 */
export const ORDER_HOLD_GRACE_SECONDS = 15 * 60;
/** Catalog holds units for an hour at most: the lifetime and its grace must fit in it. */
export const MAX_ORDER_LIFETIME_SECONDS = 3600 - ORDER_HOLD_GRACE_SECONDS;
const MAX_ITEM_QUANTITY = 100;
const DISCOUNT_CODE = /^[A-Za-z0-9_-]{3,64}$/;

export function validOrderRequest(order: { event_id: string; items: Array<{ tier_id: string; quantity: number }>; customer?: { email: string; name: string }; discount_code: string; seat_hold_id: string }): OrderRequest {
  const eventId = requiredIdParam(order.event_id, 'order.event_id');
  if (order.items.length === 0 || order.items.length > MAX_ORDER_ITEMS) {
    throw new ApiError('parameter_invalid', `order.items must list 1 to ${MAX_ORDER_ITEMS} tiers, each with its quantity.`, { param: 'order.items' });
  }
  const seen = new Set<string>();
  const items = order.items.map((item, index) => {
    const tierId = requiredIdParam(item.tier_id, `order.items[${index}].tier_id`);
    if (seen.has(tierId)) throw new ApiError('parameter_invalid', `order.items[${index}].tier_id names a tier already in the order; give each tier once, with its whole quantity.`, { param: `order.items[${index}].tier_id` });
    seen.add(tierId);
    return { tier_id: tierId, quantity: integerInRange(item.quantity, `order.items[${index}].quantity`, 1, MAX_ITEM_QUANTITY) };
  });
  if (!order.customer) throw new ApiError('parameter_missing', 'Missing required parameter: order.customer (the buyer’s email, and name if you have it).', { param: 'order.customer' });
  const code = order.discount_code.trim();
  if (code !== '' && !DISCOUNT_CODE.test(code)) throw new ApiError('parameter_invalid', 'order.discount_code must be 3 to 64 letters, digits, hyphens or underscores.', { param: 'order.discount_code' });
  return {
    event_id: eventId,
    items,
    customer: validCustomerDetails(order.customer.email, order.customer.name, 'order.customer.'),
    discount_code: code === '' ? null : code,
    seat_hold_id: order.seat_hold_id ? requiredIdParam(order.seat_hold_id, 'order.seat_hold_id') : null,
  };
}

/** An order's price comes from its tiers: the client sets neither amount nor, unless it is the event's, currency. */
export function assertOrderPricedByCatalog(command: { amount: number; currency: string }, quotedCurrency: string): void {
  if (command.amount !== 0) {
    throw new ApiError('parameter_invalid', 'amount must not be given with an order: catalog prices the order from its tiers and discount.', { param: 'amount' });
  }
  if (command.currency !== '' && command.currency.toUpperCase() !== quotedCurrency) {
    throw new ApiError('parameter_invalid', `currency must be the event's, ${quotedCurrency}, or left out.`, { param: 'currency' });
  }
}
