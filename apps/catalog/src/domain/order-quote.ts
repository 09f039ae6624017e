import { ApiError } from '@ticketing/errors';
import { bestOption, type DiscountOption } from './best-discount';
import { valueOf, type CatalogDiscount } from './discount';
import { appliesToLine, whyNotApplicable, type DiscountCandidate, type OrderFacts } from './discount-eligibility';
import { discountPerLine, pricedLines, sumOf, type PricedLine } from './order-pricing';

export interface OrderQuote {
  lines: PricedLine[];
  subtotal: number;
  discount_amount: number;
  total: number;
  discount: CatalogDiscount | null;
  /** Priced for a guest while a discount limited per customer was a candidate: a known customer may pay less. */
  depends_on_customer: boolean;
}

function optionFor(candidate: DiscountCandidate, order: OrderFacts): DiscountOption | string {
  const refusal = whyNotApplicable(candidate, order);
  if (refusal) return refusal;
  const { discount } = candidate;
  const amounts = discountPerLine(order.lines, valueOf(discount), (line) => appliesToLine(discount, line));
  const lines = pricedLines(order.lines, amounts);
  const amount = sumOf(lines, 'discount_amount');
  if (amount === 0) return 'it takes nothing off this order';
  return { discount, lines, discount_amount: amount, byCode: discount.code !== null };
}

/**
 * Prices the order with the single best discount among the candidates. A code the customer
 * entered that cannot be used is an error rather than silently ignored, so checkout can say why.
 */
export function quoteOrder(order: OrderFacts, candidates: readonly DiscountCandidate[]): OrderQuote {
  const options: DiscountOption[] = [];
  for (const candidate of candidates) {
    const option = optionFor(candidate, order);
    if (typeof option !== 'string') options.push(option);
    else if (order.discountCode !== null && candidate.discount.code === order.discountCode) {
      throw new ApiError('discount_not_applicable', `The code ${order.discountCode} cannot be used for this order: ${option}.`, { param: 'discount_code' });
    }
  }
  const best = bestOption(options);
  const lines = best?.lines ?? pricedLines(order.lines);
  return {
    lines,
    subtotal: sumOf(lines, 'subtotal'),
    discount_amount: sumOf(lines, 'discount_amount'),
    total: sumOf(lines, 'total'),
    discount: best?.discount ?? null,
    depends_on_customer: order.customerId === null && candidates.some((candidate) => candidate.discount.max_redemptions_per_customer !== null),
  };
}
