import { ApiError } from '@ticketing/errors';
import { answerEach, eachOutcome, fromOutcomeMessage, fromRefusalMessage, outcomesOf, toOutcomeMessage, toRefusalMessage } from './refusals';

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
    const value = toOutcomeMessage('reservation', { id: 'iss_1' });
    const refused = toOutcomeMessage('reservation', new ApiError('sold_out', 'Tier is sold out.'));
    expect([value, refused]).toEqual([
      { $case: 'reservation', value: { id: 'iss_1' } },
      { $case: 'refusal', value: { code: 'sold_out', message: 'Tier is sold out.', param: '' } },
    ]);
    expect(fromOutcomeMessage(value)).toEqual({ id: 'iss_1' });
    expect(fromOutcomeMessage(refused)).toBeInstanceOf(ApiError);
  });

  it('runs every item, keeping refusals per item, and fails the whole batch on anything else', async () => {
    const run = async (item: number) => {
      if (item === 2) throw new ApiError('sold_out', 'Tier is sold out.');
      return item * 10;
    };
    const outcomes = await eachOutcome([1, 2, 3], run);
    expect(outcomes[0]).toBe(10);
    expect(outcomes[1]).toMatchObject({ code: 'sold_out' });
    expect(outcomes[2]).toBe(30);
    await expect(
      eachOutcome([1, 2], async (item) => {
        if (item === 2) throw new Error('connection lost');
        return item;
      }),
    ).rejects.toThrow('connection lost');
  });

  it('answers a batch call item by item, in order, and reads the answer back as values and refusals', async () => {
    const answer = await answerEach('reservation', ['iss_1', 'iss_2'], async (id) => {
      if (id === 'iss_2') throw new ApiError('reservation_released', 'Released.');
      return { id };
    });
    expect(answer).toEqual({
      outcomes: [
        { outcome: { $case: 'reservation', value: { id: 'iss_1' } } },
        { outcome: { $case: 'refusal', value: { code: 'reservation_released', message: 'Released.', param: '' } } },
      ],
    });
    const [held, released] = outcomesOf(answer);
    expect(held).toEqual({ id: 'iss_1' });
    expect(released).toMatchObject({ code: 'reservation_released', status: 409 });
  });
});
