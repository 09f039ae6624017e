import {
  assertValidityWindow,
  MAX_APPLIES_TO_IDS,
  normalizedCode,
  validAppliesTo,
  validDiscountCode,
  validDiscountValue,
  validRedemptionLimit,
  validValidFrom,
  valueOf,
} from './discount';

const refusal = (code: string, param: string) => expect.objectContaining({ code, param });

describe('discount codes', () => {
  it('stores codes upper case and trimmed, and an empty code as none', () => {
    expect(validDiscountCode(' summer-25 ')).toBe('SUMMER-25');
    expect(validDiscountCode('')).toBeNull();
    expect(normalizedCode(' summer-25')).toBe('SUMMER-25');
    expect(normalizedCode('  ')).toBeNull();
  });

  it.each(['ab', 'x'.repeat(65), 'TEN OFF', 'ÉTÉ', 'a/b'])('refuses %p naming code', (code) => {
    expect(() => validDiscountCode(code)).toThrow(refusal('parameter_invalid', 'code'));
  });
});

describe('discount value', () => {
  it('takes a percentage in any currency or an amount in one currency', () => {
    expect(validDiscountValue({ percent_off: 25, currency: '' })).toEqual({ percent_off: 25, amount_off: null, currency: null });
    expect(validDiscountValue({ amount_off: 500, currency: 'eur' })).toEqual({ percent_off: null, amount_off: 500, currency: 'EUR' });
  });

  it('needs exactly one of percent_off and amount_off', () => {
    expect(() => validDiscountValue({ currency: '' })).toThrow(refusal('parameter_missing', 'percent_off'));
    expect(() => validDiscountValue({ percent_off: 10, amount_off: 100, currency: 'EUR' })).toThrow(refusal('parameter_invalid', 'amount_off'));
  });

  it.each([0, 101, -5, 12.5])('refuses percent_off %p', (percent) => {
    expect(() => validDiscountValue({ percent_off: percent, currency: '' })).toThrow(refusal('parameter_invalid', 'percent_off'));
  });

  it.each([0, -1, 2.5, 1e13])('refuses amount_off %p', (amount) => {
    expect(() => validDiscountValue({ amount_off: amount, currency: 'EUR' })).toThrow(refusal('parameter_invalid', 'amount_off'));
  });

  it('needs a currency with an amount and refuses one with a percentage', () => {
    expect(() => validDiscountValue({ amount_off: 500, currency: '' })).toThrow(refusal('parameter_missing', 'currency'));
    expect(() => validDiscountValue({ amount_off: 500, currency: 'EURO' })).toThrow(refusal('parameter_invalid', 'currency'));
    expect(() => validDiscountValue({ amount_off: 500, currency: 'QQQ' })).toThrow(refusal('parameter_invalid', 'currency'));
    expect(() => validDiscountValue({ percent_off: 10, currency: 'EUR' })).toThrow(refusal('parameter_invalid', 'currency'));
  });

  it('reads the value back from a stored discount', () => {
    expect(valueOf({ percent_off: 10, amount_off: null, currency: null })).toEqual({ percent_off: 10, amount_off: null, currency: null });
    expect(valueOf({ percent_off: null, amount_off: 300, currency: 'USD' })).toEqual({ percent_off: null, amount_off: 300, currency: 'USD' });
    expect(() => valueOf({ percent_off: null, amount_off: 300, currency: null })).toThrow();
  });
});

describe('what a discount applies to', () => {
  it('defaults to everything and keeps the ids given', () => {
    expect(validAppliesTo(undefined)).toEqual({ event_ids: [], tier_ids: [] });
    expect(validAppliesTo({ event_ids: ['evt_1'], tier_ids: ['tier_1', 'tier_2'] })).toEqual({ event_ids: ['evt_1'], tier_ids: ['tier_1', 'tier_2'] });
  });

  it('refuses repeated, empty and too many ids, naming the item', () => {
    expect(() => validAppliesTo({ event_ids: ['evt_1', 'evt_1'], tier_ids: [] })).toThrow(refusal('parameter_invalid', 'applies_to.event_ids[1]'));
    expect(() => validAppliesTo({ event_ids: [], tier_ids: [''] })).toThrow(refusal('parameter_invalid', 'applies_to.tier_ids[0]'));
    const many = Array.from({ length: MAX_APPLIES_TO_IDS + 1 }, (_, index) => `tier_${index}`);
    expect(() => validAppliesTo({ event_ids: [], tier_ids: many })).toThrow(refusal('parameter_invalid', 'applies_to.tier_ids'));
  });
});

describe('limits and validity window', () => {
  it('reads an absent or 0 limit as unlimited and refuses negative ones', () => {
    expect(validRedemptionLimit(undefined, 'max_redemptions')).toBeNull();
    expect(validRedemptionLimit(0, 'max_redemptions')).toBeNull();
    expect(validRedemptionLimit(7, 'max_redemptions')).toBe(7);
    expect(() => validRedemptionLimit(-1, 'max_redemptions_per_customer')).toThrow(refusal('parameter_invalid', 'max_redemptions_per_customer'));
  });

  it('needs valid_until after valid_from when both are set', () => {
    const from = new Date('2027-01-01T00:00:00Z');
    expect(() => assertValidityWindow({ valid_from: from, valid_until: new Date('2027-02-01T00:00:00Z') })).not.toThrow();
    expect(() => assertValidityWindow({ valid_from: from, valid_until: null })).not.toThrow();
    expect(() => assertValidityWindow({ valid_from: from, valid_until: from })).toThrow(refusal('parameter_invalid', 'valid_until'));
    expect(() => validValidFrom('tomorrow')).toThrow(refusal('parameter_invalid', 'valid_from'));
  });
});
