import type { CatalogDiscount } from './discount';
import { assertChangesFit, validDiscountChanges } from './discount-update';

const stored: CatalogDiscount = {
  id: 'dsc_1',
  mode: 'test',
  code: 'SUMMER',
  percent_off: 10,
  amount_off: null,
  currency: null,
  event_ids: [],
  tier_ids: [],
  valid_from: new Date('2027-01-01T00:00:00Z'),
  valid_until: null,
  max_redemptions: 10,
  max_redemptions_per_customer: null,
  times_redeemed: 4,
  active: true,
  created_at: new Date('2026-12-01T00:00:00Z'),
  updated_at: new Date('2026-12-01T00:00:00Z'),
};

describe('discount updates', () => {
  it('changes only the fields given, clearing with empty text and a 0 limit', () => {
    expect(validDiscountChanges({ code: 'winter', max_redemptions: 0, valid_from: '' })).toEqual({ code: 'WINTER', max_redemptions: null, valid_from: null });
    expect(validDiscountChanges({ applies_to: { event_ids: ['evt_1'], tier_ids: [] }, active: false })).toEqual({ event_ids: ['evt_1'], tier_ids: [], active: false });
  });

  it('refuses an update that changes nothing', () => {
    expect(() => validDiscountChanges({})).toThrow(expect.objectContaining({ code: 'parameter_missing' }));
  });

  it('checks the validity window against what is stored', () => {
    const changes = validDiscountChanges({ valid_until: '2026-06-01T00:00:00Z' });
    expect(() => assertChangesFit(stored, changes)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'valid_until' }));
    expect(() => assertChangesFit(stored, { ...changes, valid_from: null })).not.toThrow();
  });

  it('refuses a maximum below the redemptions already counted', () => {
    expect(() => assertChangesFit(stored, { max_redemptions: 3 })).toThrow(expect.objectContaining({ code: 'redemption_limit_below_redeemed', status: 409, param: 'max_redemptions' }));
    expect(() => assertChangesFit(stored, { max_redemptions: 4 })).not.toThrow();
    expect(() => assertChangesFit(stored, { max_redemptions: null })).not.toThrow();
  });
});
