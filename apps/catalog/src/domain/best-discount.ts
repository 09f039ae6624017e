import type { CatalogDiscount } from './discount';
import type { PricedLine } from './order-pricing';

/** An order priced with one applicable discount. */
export interface DiscountOption {
  discount: CatalogDiscount;
  lines: PricedLine[];
  discount_amount: number;
  /** Applied because the customer entered its code. */
  byCode: boolean;
}

/**
 * Discounts never stack: the one that takes the most off wins. On a tie the code the customer
 * entered wins (it is what they expect to see applied), then the oldest discount (lowest id),
 * so the same order always gets the same discount.
 */
export function bestOption(options: readonly DiscountOption[]): DiscountOption | undefined {
  return [...options].sort((a, b) => {
    if (a.discount_amount !== b.discount_amount) return b.discount_amount - a.discount_amount;
    if (a.byCode !== b.byCode) return a.byCode ? -1 : 1;
    return a.discount.id < b.discount.id ? -1 : a.discount.id > b.discount.id ? 1 : 0;
  })[0];
}
