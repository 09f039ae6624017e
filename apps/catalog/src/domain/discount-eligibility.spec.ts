import { newId } from '@ticketing/ids';
import type { CatalogDiscount } from './discount';
import { discountFixture } from './discount.fixture';
import { appliesToLine, unavailability, whyNotApplicable, type DiscountCandidate, type OrderFacts } from './discount-eligibility';

const at = new Date('2027-02-15T12:00:00Z');
const vip = newId('seg');

const order = (fields: Partial<OrderFacts> = {}): OrderFacts => ({
  currency: 'EUR',
  lines: [
    { tier_id: 'tier_a', event_id: 'evt_1', quantity: 2, unit_price: 1000 },
    { tier_id: 'tier_b', event_id: 'evt_1', quantity: 1, unit_price: 3000 },
  ],
  discountCode: null,
  customerId: 'cus_1',
  segmentIds: new Set([vip]),
  at,
  ...fields,
});

const candidate = (discount: Partial<CatalogDiscount>, fields: Partial<DiscountCandidate> = {}): DiscountCandidate => ({
  discount: discountFixture(discount),
  triggers: [{ kind: 'min_quantity', quantity: 1 }],
  customerRedemptions: 0,
  ...fields,
});

describe('what a discount applies to', () => {
  it('applies to everything when it names nothing, otherwise through the event or the tier', () => {
    const ticket = { tier_id: 'tier_a', event_id: 'evt_1' };
    expect(appliesToLine({ event_ids: [], tier_ids: [] }, ticket)).toBe(true);
    expect(appliesToLine({ event_ids: ['evt_1'], tier_ids: [] }, ticket)).toBe(true);
    expect(appliesToLine({ event_ids: ['evt_2'], tier_ids: ['tier_a'] }, ticket)).toBe(true);
    expect(appliesToLine({ event_ids: ['evt_2'], tier_ids: ['tier_b'] }, ticket)).toBe(false);
  });
});

describe('when nobody can use a discount', () => {
  it('tells deactivated, not yet valid, expired and exhausted apart', () => {
    const base = discountFixture();
    expect(unavailability(base, at)).toBeNull();
    expect(unavailability({ ...base, active: false }, at)).toMatchObject({ code: 'discount_inactive' });
    expect(unavailability({ ...base, valid_from: new Date('2027-03-01T00:00:00Z') }, at)).toMatchObject({ code: 'discount_inactive', reason: /valid only from/ });
    expect(unavailability({ ...base, valid_until: at }, at)).toMatchObject({ code: 'discount_inactive', reason: /expired/ });
    expect(unavailability({ ...base, max_redemptions: 3, times_redeemed: 3 }, at)).toMatchObject({ code: 'redemption_limit_reached' });
    expect(unavailability({ ...base, max_redemptions: 3, times_redeemed: 2 }, at)).toBeNull();
  });
});

describe('whether a discount applies to an order', () => {
  it('applies an automatic discount whose triggers all hold', () => {
    expect(whyNotApplicable(candidate({}), order())).toBeNull();
    expect(
      whyNotApplicable(
        candidate({}, { triggers: [{ kind: 'min_quantity', quantity: 3 }, { kind: 'customer_segment', segment_id: vip }] }),
        order(),
      ),
    ).toBeNull();
  });

  it('refuses when any trigger fails', () => {
    const triggers = [{ kind: 'min_quantity' as const, quantity: 3 }, { kind: 'customer_segment' as const, segment_id: newId('seg') }];
    expect(whyNotApplicable(candidate({}, { triggers }), order())).toMatch(/segment/);
  });

  it('never applies an automatic discount without triggers', () => {
    expect(whyNotApplicable(candidate({}, { triggers: [] }), order())).toMatch(/no code and no trigger/);
  });

  it('applies a code discount only with its code, and its triggers still have to hold', () => {
    const coded = candidate({ code: 'SPRING' }, { triggers: [] });
    expect(whyNotApplicable(coded, order())).toMatch(/code/);
    expect(whyNotApplicable(coded, order({ discountCode: 'SPRING' }))).toBeNull();
    const guarded = candidate({ code: 'SPRING' }, { triggers: [{ kind: 'min_quantity', quantity: 10 }] });
    expect(whyNotApplicable(guarded, order({ discountCode: 'SPRING' }))).toMatch(/at least 10/);
  });

  it('counts only the tickets the discount applies to towards a minimum quantity', () => {
    const scoped = candidate({ tier_ids: ['tier_b'] }, { triggers: [{ kind: 'min_quantity', quantity: 2 }] });
    expect(whyNotApplicable(scoped, order())).toMatch(/at least 2/);
  });

  it('refuses when it applies to none of the tickets', () => {
    expect(whyNotApplicable(candidate({ event_ids: ['evt_2'] }), order())).toMatch(/does not apply/);
  });

  it('refuses an amount in another currency but takes a percentage in any', () => {
    expect(whyNotApplicable(candidate({ percent_off: null, amount_off: 500, currency: 'USD' }), order())).toMatch(/USD/);
    expect(whyNotApplicable(candidate({ percent_off: null, amount_off: 500, currency: 'EUR' }), order())).toBeNull();
  });

  it('holds the per-customer limit, and refuses it to guests', () => {
    const limited = { max_redemptions_per_customer: 2 };
    expect(whyNotApplicable(candidate(limited, { customerRedemptions: 1 }), order())).toBeNull();
    expect(whyNotApplicable(candidate(limited, { customerRedemptions: 2 }), order())).toMatch(/maximum number of times/);
    expect(whyNotApplicable(candidate(limited), order({ customerId: null }))).toMatch(/no customer/);
  });

  it('refuses a discount nobody can use', () => {
    expect(whyNotApplicable(candidate({ active: false }), order())).toMatch(/deactivated/);
    expect(whyNotApplicable(candidate({ max_redemptions: 1, times_redeemed: 1 }), order())).toMatch(/maximum/);
  });
});
