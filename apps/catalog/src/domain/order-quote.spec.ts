import { bestOption } from './best-discount';
import type { CatalogDiscount } from './discount';
import type { DiscountCandidate, OrderFacts } from './discount-eligibility';
import { discountFixture } from './discount.fixture';
import { quoteOrder } from './order-quote';

const order = (fields: Partial<OrderFacts> = {}): OrderFacts => ({
  currency: 'EUR',
  lines: [
    { tier_id: 'tier_a', event_id: 'evt_1', quantity: 2, unit_price: 2000 },
    { tier_id: 'tier_b', event_id: 'evt_1', quantity: 1, unit_price: 6000 },
  ],
  discountCode: null,
  customerId: null,
  segmentIds: new Set(),
  at: new Date('2027-02-15T12:00:00Z'),
  ...fields,
});

const automatic = (fields: Partial<CatalogDiscount>): DiscountCandidate => ({
  discount: discountFixture(fields),
  triggers: [{ kind: 'min_quantity', quantity: 2 }],
  customerRedemptions: 0,
});
const coded = (code: string, fields: Partial<CatalogDiscount>): DiscountCandidate => ({ discount: discountFixture({ code, ...fields }), triggers: [], customerRedemptions: 0 });

describe('quoting an order', () => {
  it('prices the order without a discount when none applies', () => {
    const quote = quoteOrder(order(), [automatic({ event_ids: ['evt_other'] })]);
    expect(quote).toMatchObject({ subtotal: 10_000, discount_amount: 0, total: 10_000, discount: null });
    expect(quote.lines.map((line) => line.total)).toEqual([4000, 6000]);
  });

  it('applies the single best discount: discounts never stack', () => {
    const quote = quoteOrder(order(), [automatic({ id: 'dsc_a', percent_off: 10 }), automatic({ id: 'dsc_b', percent_off: 25 }), automatic({ id: 'dsc_c', percent_off: 5 })]);
    expect(quote.discount?.id).toBe('dsc_b');
    expect(quote).toMatchObject({ subtotal: 10_000, discount_amount: 2500, total: 7500 });
    expect(quote.lines).toEqual([
      { tier_id: 'tier_a', quantity: 2, unit_price: 2000, subtotal: 4000, discount_amount: 1000, total: 3000 },
      { tier_id: 'tier_b', quantity: 1, unit_price: 6000, subtotal: 6000, discount_amount: 1500, total: 4500 },
    ]);
  });

  it('compares what each discount takes off this order, not its face value', () => {
    const percentOnCheapTier = automatic({ id: 'dsc_a', percent_off: 50, tier_ids: ['tier_a'] });
    const amountOff = automatic({ id: 'dsc_b', percent_off: null, amount_off: 2500, currency: 'EUR' });
    expect(quoteOrder(order(), [percentOnCheapTier, amountOff]).discount?.id).toBe('dsc_b');
  });

  it('prefers the entered code on a tie, then the oldest discount', () => {
    const code = coded('SAVE10', { id: 'dsc_z', percent_off: 10 });
    expect(quoteOrder(order({ discountCode: 'SAVE10' }), [automatic({ id: 'dsc_a', percent_off: 10 }), code]).discount?.id).toBe('dsc_z');
    expect(quoteOrder(order(), [automatic({ id: 'dsc_b', percent_off: 10 }), automatic({ id: 'dsc_a', percent_off: 10 })]).discount?.id).toBe('dsc_a');
  });

  it('lets a better automatic discount win over an entered code', () => {
    const quote = quoteOrder(order({ discountCode: 'SAVE10' }), [coded('SAVE10', { id: 'dsc_code', percent_off: 10 }), automatic({ id: 'dsc_auto', percent_off: 30 })]);
    expect(quote.discount?.id).toBe('dsc_auto');
  });

  it('says why an entered code cannot be used instead of ignoring it', () => {
    const expired = coded('SAVE10', { valid_until: new Date('2027-01-01T00:00:00Z') });
    expect(() => quoteOrder(order({ discountCode: 'SAVE10' }), [expired])).toThrow(
      expect.objectContaining({ code: 'discount_not_applicable', param: 'discount_code', message: expect.stringMatching(/expired/) }),
    );
  });

  it('does not apply a discount that takes nothing off', () => {
    const free = order({ lines: [{ tier_id: 'tier_free', event_id: 'evt_1', quantity: 2, unit_price: 0 }] });
    expect(quoteOrder(free, [automatic({ percent_off: 50 })]).discount).toBeNull();
  });
});

describe('choosing among applicable discounts', () => {
  it('has no choice to make without options', () => {
    expect(bestOption([])).toBeUndefined();
  });
});
