import { upgradeOptions, type TierFacts } from './upgrade';

const tier = (id: string, rank: number, price: number, counters: Partial<TierFacts> = {}): TierFacts => ({
  id,
  name: id,
  rank,
  price,
  currency: 'EUR',
  capacity: 10,
  held: 0,
  sold: 0,
  ...counters,
});

describe('upgradeOptions', () => {
  const ga = tier('tier_01A', 0, 3000);

  it('offers only higher-rank tiers, newest first, with the price difference and what is left', () => {
    const options = upgradeOptions(ga, [ga, tier('tier_01B', 1, 5000, { held: 2, sold: 3 }), tier('tier_01C', 2, 9000), tier('tier_01D', 0, 4000)]);
    expect(options).toEqual([
      { tier_id: 'tier_01C', name: 'tier_01C', rank: 2, price: 9000, currency: 'EUR', price_difference: 6000, available: 10 },
      { tier_id: 'tier_01B', name: 'tier_01B', rank: 1, price: 5000, currency: 'EUR', price_difference: 2000, available: 5 },
    ]);
  });

  it('never charges less than nothing for a better tier that costs less', () => {
    expect(upgradeOptions(ga, [tier('tier_01B', 3, 1000)])[0]).toMatchObject({ price_difference: 0 });
  });

  it('shows a sold-out tier with nothing available, never below zero', () => {
    expect(upgradeOptions(ga, [tier('tier_01B', 1, 5000, { capacity: 4, held: 1, sold: 4 })])[0]).toMatchObject({ available: 0 });
  });
});
