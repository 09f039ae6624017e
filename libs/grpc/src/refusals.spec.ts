import { ApiError } from '@ticketing/errors';
import { fromOutcomeMessage, fromRefusalMessage, toRefusalMessage } from './refusals';
import { togetherOutcomeOf } from './together-messages';

describe('batch outcomes', () => {
  it('carries a refusal with its code, message and parameter, and brings it back as the same ApiError', () => {
    const refusal = toRefusalMessage(new ApiError('parameter_invalid', 'quantity must be at least 1', { param: 'quantity' }));
    expect(refusal).toEqual({ code: 'parameter_invalid', message: 'quantity must be at least 1', param: 'quantity' });
    expect(fromRefusalMessage(refusal)).toMatchObject({ code: 'parameter_invalid', message: 'quantity must be at least 1', param: 'quantity', status: 400 });
    expect(fromRefusalMessage(toRefusalMessage(new ApiError('sold_out', 'Tier is sold out.')))).toMatchObject({ code: 'sold_out', param: undefined, status: 409 });
  });

  it('treats a code this build does not know, or an item left without an outcome, as an internal error', () => {
    expect(fromRefusalMessage({ code: 'brand_new_code', message: 'x', param: '' })).toMatchObject({ code: 'internal_error' });
    expect(fromOutcomeMessage(undefined)).toMatchObject({ code: 'internal_error' });
  });

  it('answers each item’s value or refusal under the oneof, and reads them back', () => {
    const { outcome: value } = togetherOutcomeOf({ kind: 'answered', response: { id: 'iss_1' }, replayed: false });
    const { outcome: refused } = togetherOutcomeOf({ kind: 'refused', error: new ApiError('sold_out', 'Tier is sold out.') });
    expect([value, refused]).toEqual([
      { $case: 'response', value: { id: 'iss_1' } },
      { $case: 'refusal', value: { code: 'sold_out', message: 'Tier is sold out.', param: '' } },
    ]);
    expect(fromOutcomeMessage(value)).toEqual({ id: 'iss_1' });
    expect(fromOutcomeMessage(refused)).toBeInstanceOf(ApiError);
  });
});
