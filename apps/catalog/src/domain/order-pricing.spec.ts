import { discountPerLine, pricedLines, sumOf, type OrderLine } from './order-pricing';

const line = (tier_id: string, unit_price: number, quantity: number, event_id = 'evt_1'): OrderLine => ({ tier_id, event_id, unit_price, quantity });
const percent = (percent_off: number) => ({ percent_off, amount_off: null, currency: null });
const amount = (amount_off: number) => ({ percent_off: null, amount_off, currency: 'EUR' });
const everything = () => true;

describe('order pricing', () => {
  it('prices each line as unit price times quantity', () => {
    const lines = pricedLines([line('tier_a', 2500, 2), line('tier_b', 999, 3)]);
    expect(lines).toEqual([
      { tier_id: 'tier_a', quantity: 2, unit_price: 2500, subtotal: 5000, discount_amount: 0, total: 5000 },
      { tier_id: 'tier_b', quantity: 3, unit_price: 999, subtotal: 2997, discount_amount: 0, total: 2997 },
    ]);
    expect(sumOf(lines, 'total')).toBe(7997);
  });

  it('rounds a percentage down on each line, so it never exceeds its rate', () => {
    expect(discountPerLine([line('tier_a', 999, 1), line('tier_b', 1001, 1)], percent(15), everything)).toEqual([149, 150]);
    expect(discountPerLine([line('tier_a', 5000, 1)], percent(100), everything)).toEqual([5000]);
  });

  it('takes nothing off lines the discount does not apply to', () => {
    const lines = [line('tier_a', 1000, 1), line('tier_b', 1000, 1)];
    expect(discountPerLine(lines, percent(50), (candidate) => candidate.tier_id === 'tier_b')).toEqual([0, 500]);
    expect(discountPerLine(lines, amount(300), (candidate) => candidate.tier_id === 'tier_a')).toEqual([300, 0]);
  });

  it('spreads a fixed amount over eligible lines in proportion, adding up exactly', () => {
    const shares = discountPerLine([line('tier_a', 1000, 1), line('tier_b', 1000, 1), line('tier_c', 1000, 1)], amount(100), everything);
    expect(shares).toEqual([34, 33, 33]);
    const uneven = discountPerLine([line('tier_a', 700, 1), line('tier_b', 300, 3)], amount(1000), everything);
    expect(uneven.reduce((sum, share) => sum + share, 0)).toBe(1000);
    expect(uneven).toEqual([438, 562]);
  });

  it('caps a fixed amount at what the eligible lines cost', () => {
    expect(discountPerLine([line('tier_a', 400, 1), line('tier_b', 100, 2)], amount(10_000), everything)).toEqual([400, 200]);
    expect(discountPerLine([line('tier_a', 0, 2)], amount(500), everything)).toEqual([0]);
  });

  it('keeps exact minor units where floating point would not', () => {
    const expensive = line('tier_a', 999_999_999_999, 1000);
    expect(discountPerLine([expensive], percent(33), everything)).toEqual([329_999_999_999_670]);
  });
});
