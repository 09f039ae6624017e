import { validationError } from '../validation/validation-error';
import { discountsRoutes } from './discounts.routes';

function bodyOf(operationId: string) {
  const route = discountsRoutes.find((candidate) => candidate.operationId === operationId);
  if (!route?.body) throw new Error(`${operationId} has no body`);
  return route.body;
}

function refusal(operationId: string, input: unknown) {
  const result = bodyOf(operationId).safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  const error = validationError(result.error, input, 'body');
  return { code: error.code, param: error.param };
}

describe('discount request bodies', () => {
  it('accepts a percent or an amount discount', () => {
    expect(bodyOf('createDiscount').safeParse({ code: 'SUMMER25', percent_off: 25, applies_to: { event_ids: ['evt_01ABC'] } }).success).toBe(true);
    expect(bodyOf('createDiscount').safeParse({ amount_off: 500, currency: 'EUR', max_redemptions: null }).success).toBe(true);
  });

  it.each([
    [{ percent_off: '10' }, 'parameter_invalid', 'percent_off'],
    [{ percent_off: 0 }, 'parameter_invalid', 'percent_off'],
    [{ percent_off: 101 }, 'parameter_invalid', 'percent_off'],
    [{ amount_off: -100, currency: 'EUR' }, 'parameter_invalid', 'amount_off'],
    [{ amount_off: 100 }, 'parameter_missing', 'currency'],
    [{ percent_off: 10, amount_off: 100, currency: 'EUR' }, 'parameter_invalid', 'amount_off'],
    [{ percent_off: 10, currency: 'EUR' }, 'parameter_invalid', 'currency'],
    [{}, 'parameter_missing', 'percent_off'],
    [{ percent_off: 10, valid_from: '2027-03-01T00:00:00Z', valid_until: '2027-02-01T00:00:00Z' }, 'parameter_invalid', 'valid_until'],
    [{ percent_off: 10, applies_to: { event_ids: ['evt_1', 'evt_1'] } }, 'parameter_invalid', 'applies_to.event_ids[1]'],
    [{ percent_off: 10, applies_to: { tier_ids: ['evt_1'] } }, 'parameter_invalid', 'applies_to.tier_ids[0]'],
    [{ percent_off: 10, applies_to: { tier_ids: [`tier_${'A'.repeat(300)}`] } }, 'parameter_invalid', 'applies_to.tier_ids[0]'],
    [{ percent_off: 10, times_redeemed: 4 }, 'parameter_unknown', 'times_redeemed'],
    [{ percent_off: 10, code: 'a b' }, 'parameter_invalid', 'code'],
    [{ percent_off: 10, max_redemptions: 0 }, 'parameter_invalid', 'max_redemptions'],
  ])('refuses the discount %j', (input, code, param) => {
    expect(refusal('createDiscount', input)).toEqual({ code, param });
  });

  it('takes partial updates, null clearing, and refuses an empty one or a new value', () => {
    expect(bodyOf('updateDiscount').safeParse({ code: null, valid_until: null, max_redemptions: null }).success).toBe(true);
    expect(refusal('updateDiscount', {})).toEqual({ code: 'parameter_missing', param: undefined });
    expect(refusal('updateDiscount', { percent_off: 20 })).toEqual({ code: 'parameter_unknown', param: 'percent_off' });
    expect(refusal('updateDiscount', { valid_from: '2027-03-01T00:00:00Z', valid_until: '2027-03-01T00:00:00Z' })).toEqual({
      code: 'parameter_invalid',
      param: 'valid_until',
    });
  });

  it.each([
    [{ kind: 'min_quantity', quantity: 4 }],
    [{ kind: 'purchase_window', ends_at: '2027-06-01T00:00:00Z' }],
    [{ kind: 'customer_segment', segment_id: 'seg_01ABC' }],
    [{ kind: 'tier_bundle', tier_ids: ['tier_01A', 'tier_01B'] }],
  ])('accepts the trigger %j', (input) => {
    expect(bodyOf('createDiscountTrigger').safeParse(input).success).toBe(true);
  });

  it.each([
    [{ quantity: 4 }, 'parameter_missing', 'kind'],
    [{ kind: 'loyalty' }, 'parameter_invalid', 'kind'],
    [{ kind: 'min_quantity' }, 'parameter_missing', 'quantity'],
    [{ kind: 'min_quantity', quantity: 0 }, 'parameter_invalid', 'quantity'],
    [{ kind: 'min_quantity', quantity: 2, segment_id: 'seg_01ABC' }, 'parameter_invalid', 'segment_id'],
    [{ kind: 'purchase_window' }, 'parameter_missing', 'ends_at'],
    [{ kind: 'purchase_window', starts_at: '2027-06-01T00:00:00Z', ends_at: '2027-05-01T00:00:00Z' }, 'parameter_invalid', 'ends_at'],
    [{ kind: 'customer_segment', segment_id: 'cus_01ABC' }, 'parameter_invalid', 'segment_id'],
    [{ kind: 'tier_bundle', tier_ids: ['tier_01A'] }, 'parameter_invalid', 'tier_ids'],
    [{ kind: 'tier_bundle', tier_ids: ['tier_01A', 'tier_01A'] }, 'parameter_invalid', 'tier_ids[1]'],
    // An id longer than any id is refused as such, as it is in applies_to, not looked up and missed.
    [{ kind: 'tier_bundle', tier_ids: [`tier_${'A'.repeat(300)}`, 'tier_01B'] }, 'parameter_invalid', 'tier_ids[0]'],
  ])('refuses the trigger %j', (input, code, param) => {
    expect(refusal('createDiscountTrigger', input)).toEqual({ code, param });
  });
});
