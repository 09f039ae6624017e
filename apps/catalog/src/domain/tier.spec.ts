import {
  assertConsistentTier,
  assertMinimumOrderFits,
  assertEventCurrency,
  assertSalesWindowBeforeStart,
  MAX_CAPACITY,
  MAX_PRICE,
  validCapacity,
  validMaxPerOrder,
  validMinPerOrder,
  validPrice,
  validRank,
  validSalesEnd,
  validSalesStart,
  validTierName,
} from './tier';

const consistent = {
  sales_start_at: new Date('2027-05-01T00:00:00Z'),
  sales_end_at: new Date('2027-06-01T00:00:00Z'),
  min_per_order: 2,
  max_per_order: 4,
};

describe('tier fields', () => {
  it('trims names up to 100 characters', () => {
    expect(validTierName('  VIP ')).toBe('VIP');
    expect(() => validTierName('')).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'name' }));
    expect(() => validTierName('x'.repeat(101))).toThrow(expect.objectContaining({ param: 'name' }));
  });

  it('accepts prices from 0 (free) to MAX_PRICE minor units', () => {
    expect(MAX_PRICE).toBe(1_000_000_000_000);
    expect(validPrice(0)).toBe(0);
    expect(validPrice(2500)).toBe(2500);
    expect(validPrice(MAX_PRICE)).toBe(MAX_PRICE);
  });

  it.each([-1, 12.5, 0.1, MAX_PRICE + 1, Number.NaN])('refuses the price %p', (price) => {
    expect(() => validPrice(price)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'price', status: 400 }));
  });

  it('accepts capacities from 0 to MAX_CAPACITY', () => {
    expect(validCapacity(0)).toBe(0);
    expect(validCapacity(MAX_CAPACITY)).toBe(10_000_000);
    for (const bad of [-1, 1.5, MAX_CAPACITY + 1]) {
      expect(() => validCapacity(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'capacity' }));
    }
  });

  it('accepts ranks from 0 to 1000', () => {
    expect(validRank(0)).toBe(0);
    expect(validRank(1000)).toBe(1000);
    expect(() => validRank(1001)).toThrow(expect.objectContaining({ param: 'rank' }));
    expect(() => validRank(-1)).toThrow(expect.objectContaining({ param: 'rank' }));
  });

  it('needs at least one ticket per order', () => {
    expect(validMinPerOrder(1)).toBe(1);
    expect(() => validMinPerOrder(0)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'min_per_order' }));
    expect(() => validMinPerOrder(MAX_CAPACITY + 1)).toThrow(expect.objectContaining({ param: 'min_per_order' }));
  });

  it('reads a maximum per order of 0 as no maximum', () => {
    expect(validMaxPerOrder(0)).toBeNull();
    expect(validMaxPerOrder(1)).toBe(1);
    expect(validMaxPerOrder(MAX_CAPACITY)).toBe(MAX_CAPACITY);
    for (const bad of [-1, 2.5, MAX_CAPACITY + 1]) {
      expect(() => validMaxPerOrder(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'max_per_order' }));
    }
  });

  it('parses sales windows, empty meaning open', () => {
    expect(validSalesStart('')).toBeNull();
    expect(validSalesEnd('')).toBeNull();
    expect(validSalesStart('2027-05-01T00:00:00Z')?.toISOString()).toBe('2027-05-01T00:00:00.000Z');
    expect(() => validSalesStart('soon')).toThrow(expect.objectContaining({ param: 'sales_start_at' }));
    expect(() => validSalesEnd('later')).toThrow(expect.objectContaining({ param: 'sales_end_at' }));
  });
});

describe('assertConsistentTier', () => {
  it('accepts an ordered sales window and a maximum at or above the minimum', () => {
    expect(() => assertConsistentTier(consistent)).not.toThrow();
    expect(() => assertConsistentTier({ ...consistent, max_per_order: 2 })).not.toThrow();
    expect(() => assertConsistentTier({ ...consistent, max_per_order: null, min_per_order: 50 })).not.toThrow();
    expect(() => assertConsistentTier({ ...consistent, sales_start_at: null })).not.toThrow();
    expect(() => assertConsistentTier({ ...consistent, sales_end_at: null })).not.toThrow();
  });

  it('refuses a sales window that ends at or before its start, naming sales_end_at', () => {
    for (const end of [consistent.sales_start_at, new Date('2027-04-30T23:59:59Z')]) {
      expect(() => assertConsistentTier({ ...consistent, sales_end_at: end })).toThrow(
        expect.objectContaining({ code: 'parameter_invalid', param: 'sales_end_at', message: 'sales_end_at must be after sales_start_at.' }),
      );
    }
  });

  it('refuses a maximum below the minimum, naming max_per_order', () => {
    expect(() => assertConsistentTier({ ...consistent, min_per_order: 5, max_per_order: 4 })).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'max_per_order', message: 'max_per_order must be at least min_per_order.' }),
    );
  });
});

describe('assertMinimumOrderFits', () => {
  it('takes a minimum order up to the capacity, and any minimum while the capacity is 0 (a placeholder)', () => {
    expect(() => assertMinimumOrderFits({ capacity: 4, min_per_order: 4 }, 'min_per_order')).not.toThrow();
    expect(() => assertMinimumOrderFits({ capacity: 0, min_per_order: 10 }, 'min_per_order')).not.toThrow();
  });

  it('refuses a minimum order above the capacity, naming the field the request changed', () => {
    for (const param of ['min_per_order', 'capacity'] as const) {
      expect(() => assertMinimumOrderFits({ capacity: 3, min_per_order: 4 }, param)).toThrow(
        expect.objectContaining({
          code: 'parameter_invalid',
          param,
          message: "min_per_order (4) is more than the tier's capacity (3), so no order could ever be sold: lower min_per_order or raise capacity.",
        }),
      );
    }
  });
});

describe('assertEventCurrency', () => {
  it('passes when no currency is given', () => {
    expect(() => assertEventCurrency(undefined, 'EUR')).not.toThrow();
  });

  it('passes for the event currency in any case', () => {
    expect(() => assertEventCurrency('EUR', 'EUR')).not.toThrow();
    expect(() => assertEventCurrency('eur', 'EUR')).not.toThrow();
    expect(() => assertEventCurrency('Eur', 'EUR')).not.toThrow();
  });

  it('refuses another currency, naming currency and the event currency', () => {
    expect(() => assertEventCurrency('usd', 'EUR')).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'currency', message: "currency must be the event's currency, EUR." }),
    );
  });

  it('refuses a malformed code as a bad currency', () => {
    expect(() => assertEventCurrency('EURO', 'EUR')).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'currency', message: 'currency must be an ISO 4217 currency code such as EUR.' }),
    );
    expect(() => assertEventCurrency('', 'EUR')).toThrow(expect.objectContaining({ param: 'currency' }));
  });

  it('refuses sales that start at or after the event without an end of their own: the window would be empty', () => {
    const eventStartsAt = new Date('2027-09-01T20:00:00Z');
    const startingAt = (iso: string | null, end: Date | null = null) => () => assertSalesWindowBeforeStart({ sales_start_at: iso === null ? null : new Date(iso), sales_end_at: end }, eventStartsAt);
    expect(startingAt('2027-09-01T20:00:00Z')).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'sales_start_at' }));
    expect(startingAt('2027-10-01T00:00:00Z')).toThrow(expect.objectContaining({ param: 'sales_start_at' }));
    expect(startingAt('2027-09-01T19:59:59Z')).not.toThrow();
    expect(startingAt(null)).not.toThrow();
    // Door sales: their own end, after the start.
    expect(startingAt('2027-09-01T20:00:00Z', new Date('2027-09-01T23:00:00Z'))).not.toThrow();
  });
});
