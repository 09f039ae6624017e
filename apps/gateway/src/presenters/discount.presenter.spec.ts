import { discountResource, discountTriggerResource, presentDiscount, presentDiscountTrigger } from './discount.presenter';

const stored = {
  id: 'dsc_1',
  livemode: true,
  code: '',
  percent_off: 0,
  amount_off: 500,
  currency: 'EUR',
  applies_to: { event_ids: ['evt_1'], tier_ids: [] },
  valid_from: '',
  valid_until: '2027-09-01T00:00:00.000Z',
  max_redemptions: 0,
  max_redemptions_per_customer: 1,
  times_redeemed: 3,
  active: true,
  created_at: '2027-01-01T00:00:00.000Z',
  updated_at: '2027-01-02T00:00:00.000Z',
};

describe('discount presenters', () => {
  it('shows unset fields as null, never as empty strings or zeros', () => {
    const discount = presentDiscount(stored);
    expect(discount).toEqual({
      id: 'dsc_1',
      object: 'discount',
      livemode: true,
      code: null,
      percent_off: null,
      amount_off: 500,
      currency: 'EUR',
      applies_to: { event_ids: ['evt_1'], tier_ids: [] },
      valid_from: null,
      valid_until: '2027-09-01T00:00:00.000Z',
      max_redemptions: null,
      max_redemptions_per_customer: 1,
      times_redeemed: 3,
      active: true,
      created_at: '2027-01-01T00:00:00.000Z',
      updated_at: '2027-01-02T00:00:00.000Z',
    });
    expect(discountResource.strict().parse(discount)).toEqual(discount);
    expect(presentDiscount({ ...stored, applies_to: undefined }).applies_to).toEqual({ event_ids: [], tier_ids: [] });
  });

  it('shows each kind of trigger with only its own fields', () => {
    const base = { id: 'dtr_1', livemode: false, discount_id: 'dsc_1', created_at: '2027-01-01T00:00:00.000Z' };
    const window = presentDiscountTrigger({ ...base, condition: { $case: 'purchase_window', value: { starts_at: '', ends_at: '2027-06-01T00:00:00.000Z' } } });
    expect(window).toEqual({ ...base, object: 'discount_trigger', kind: 'purchase_window', starts_at: null, ends_at: '2027-06-01T00:00:00.000Z' });
    expect(discountTriggerResource.parse(window)).toEqual(window);
    expect(presentDiscountTrigger({ ...base, condition: { $case: 'min_quantity', value: { quantity: 4 } } })).toMatchObject({ kind: 'min_quantity', quantity: 4 });
    expect(presentDiscountTrigger({ ...base, condition: { $case: 'customer_segment', value: { segment_id: 'seg_1' } } })).toMatchObject({ segment_id: 'seg_1' });
    expect(presentDiscountTrigger({ ...base, condition: { $case: 'tier_bundle', value: { tier_ids: ['tier_a', 'tier_b'] } } })).toMatchObject({ tier_ids: ['tier_a', 'tier_b'] });
    expect(() => presentDiscountTrigger({ ...base, condition: undefined })).toThrow(/without its condition/);
  });
});
