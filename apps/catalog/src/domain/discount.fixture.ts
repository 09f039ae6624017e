import type { CatalogDiscount } from './discount';

/** For unit tests: a 10 % automatic discount with no limits, changed by `fields`. */
export function discountFixture(fields: Partial<CatalogDiscount> = {}): CatalogDiscount {
  const at = new Date('2027-01-01T00:00:00Z');
  return {
    id: 'dsc_1',
    mode: 'test',
    code: null,
    percent_off: 10,
    amount_off: null,
    currency: null,
    event_ids: [],
    tier_ids: [],
    valid_from: null,
    valid_until: null,
    max_redemptions: null,
    max_redemptions_per_customer: null,
    times_redeemed: 0,
    active: true,
    created_at: at,
    updated_at: at,
    ...fields,
  };
}
