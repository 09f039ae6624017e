import { requiredIdParam, optionalIdParam } from '@ticketing/fields';
import { MAX_QUOTE_ITEMS, validQuoteItems, validSegmentIds } from './quote-request';

describe('quote requests', () => {
  it('takes one line per tier with a quantity of 1 to 1000', () => {
    expect(validQuoteItems([{ tier_id: 'tier_a', quantity: 2 }])).toEqual([{ tier_id: 'tier_a', quantity: 2 }]);
    expect(() => validQuoteItems([])).toThrow(expect.objectContaining({ code: 'parameter_missing', param: 'items' }));
    expect(() => validQuoteItems([{ tier_id: 'tier_a', quantity: 0 }])).toThrow(expect.objectContaining({ param: 'items[0].quantity' }));
    expect(() => validQuoteItems([{ tier_id: 'tier_a', quantity: 1001 }])).toThrow(expect.objectContaining({ param: 'items[0].quantity' }));
    expect(() =>
      validQuoteItems([
        { tier_id: 'tier_a', quantity: 1 },
        { tier_id: 'tier_a', quantity: 1 },
      ]),
    ).toThrow(expect.objectContaining({ param: 'items[1].tier_id' }));
    const tooMany = Array.from({ length: MAX_QUOTE_ITEMS + 1 }, (_, index) => ({ tier_id: `tier_${index}`, quantity: 1 }));
    expect(() => validQuoteItems(tooMany)).toThrow(expect.objectContaining({ param: 'items' }));
  });

  it('reads segment ids as a set and ids as optional or required', () => {
    expect(validSegmentIds(['seg_1', 'seg_1']).size).toBe(1);
    expect(optionalIdParam('', 'customer_id')).toBeNull();
    expect(() => requiredIdParam('', 'order_id')).toThrow(expect.objectContaining({ code: 'parameter_missing', param: 'order_id' }));
    expect(() => optionalIdParam('x'.repeat(256), 'customer_id')).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'customer_id' }));
  });
});
