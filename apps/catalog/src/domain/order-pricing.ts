import type { DiscountValue } from './discount';

/** One tier of an order, at the tier's current price. */
export interface OrderLine {
  tier_id: string;
  event_id: string;
  quantity: number;
  /** Minor units of the event's currency. */
  unit_price: number;
}

export interface PricedLine {
  tier_id: string;
  quantity: number;
  unit_price: number;
  subtotal: number;
  discount_amount: number;
  total: number;
}

const subtotalOf = (line: OrderLine) => line.unit_price * line.quantity;

/**
 * What a discount takes off each line (0 for lines it does not apply to). A percentage is
 * rounded down per line, so it never exceeds its stated rate. A fixed amount is taken once per
 * order, capped at the eligible subtotal, and spread over the eligible lines in proportion to
 * their subtotals; the minor units left by rounding go to the largest remainders, earlier line
 * first on a tie, so the lines always add up to the amount.
 */
export function discountPerLine(lines: readonly OrderLine[], value: DiscountValue, applies: (line: OrderLine) => boolean): number[] {
  // BigInt: a subtotal times a rate can pass 2^53 even when both fit comfortably.
  const subtotals = lines.map((line) => (applies(line) ? BigInt(subtotalOf(line)) : 0n));
  if (value.percent_off !== null) {
    const rate = BigInt(value.percent_off);
    return subtotals.map((subtotal) => Number((subtotal * rate) / 100n));
  }
  const eligible = subtotals.reduce((sum, subtotal) => sum + subtotal, 0n);
  if (eligible === 0n) return lines.map(() => 0);
  const amount = BigInt(value.amount_off) < eligible ? BigInt(value.amount_off) : eligible;
  const shares = subtotals.map((subtotal) => (amount * subtotal) / eligible);
  const remainders = subtotals.map((subtotal, index) => ({ index, remainder: (amount * subtotal) % eligible }));
  let left = amount - shares.reduce((sum, share) => sum + share, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    if (subtotals[index] === 0n) continue;
    shares[index]! += 1n;
    left -= 1n;
  }
  return shares.map(Number);
}

export function pricedLines(lines: readonly OrderLine[], discounts: readonly number[] = lines.map(() => 0)): PricedLine[] {
  return lines.map((line, index) => {
    const subtotal = subtotalOf(line);
    const discount = discounts[index] ?? 0;
    return { tier_id: line.tier_id, quantity: line.quantity, unit_price: line.unit_price, subtotal, discount_amount: discount, total: subtotal - discount };
  });
}

export function sumOf(lines: readonly PricedLine[], field: 'subtotal' | 'discount_amount' | 'total'): number {
  return lines.reduce((sum, line) => sum + line[field], 0);
}
