import { upgradeOptions, upgradePrice, type TierFacts } from './upgrade';

const tier = (id: string, rank: number, price: number, counters: Partial<TierFacts> = {}): TierFacts => ({
  id,
  name: id,
  rank,
  price,
  currency: 'EUR',
  capacity: 10,
  held: 0,
  sold: 0,
  seated: false,
  salesStartAt: null,
  salesEndAt: null,
  ...counters,
});
const now = new Date('2027-06-01T12:00:00Z');
const startsAt = new Date('2027-06-02T19:00:00Z');

describe('upgradeOptions', () => {
  const ga = tier('tier_01A', 0, 3000);

  it('offers only higher-rank tiers, newest first, with the price difference and what is left', () => {
    const options = upgradeOptions(ga, [ga, tier('tier_01B', 1, 5000, { held: 2, sold: 3 }), tier('tier_01C', 2, 9000), tier('tier_01D', 0, 4000)], startsAt, now);
    expect(options).toEqual([
      { tier_id: 'tier_01C', name: 'tier_01C', rank: 2, price: 9000, currency: 'EUR', price_difference: 6000, available: 10 },
      { tier_id: 'tier_01B', name: 'tier_01B', rank: 1, price: 5000, currency: 'EUR', price_difference: 2000, available: 5 },
    ]);
  });

  it('never charges less than nothing for a better tier that costs less', () => {
    expect(upgradeOptions(ga, [tier('tier_01B', 3, 1000)], startsAt, now)[0]).toMatchObject({ price_difference: 0 });
  });

  it('shows a sold-out tier with nothing available, never below zero', () => {
    expect(upgradeOptions(ga, [tier('tier_01B', 1, 5000, { capacity: 4, held: 1, sold: 4 })], startsAt, now)[0]).toMatchObject({ available: 0 });
  });

  it('leaves out the tiers whose sales are not open now', () => {
    const hour = 3_600_000;
    const tiers = [
      tier('tier_01B', 1, 5000, { salesStartAt: new Date(now.getTime() + hour) }),
      tier('tier_01C', 1, 5000, { salesEndAt: now }),
      tier('tier_01D', 1, 5000, { salesStartAt: new Date(now.getTime() - hour), salesEndAt: new Date(now.getTime() + hour) }),
      tier('tier_01E', 1, 5000, { salesStartAt: now }),
    ];
    expect(upgradeOptions(ga, tiers, startsAt, now).map((option) => option.tier_id)).toEqual(['tier_01E', 'tier_01D']);
  });

  it('closes the tiers without a sales end when the event starts, and keeps those that sell at the door', () => {
    const atTheDoor = tier('tier_01C', 1, 5000, { salesEndAt: new Date(now.getTime() + 3_600_000) });
    expect(upgradeOptions(ga, [tier('tier_01B', 1, 5000), atTheDoor], now, now).map((option) => option.tier_id)).toEqual(['tier_01C']);
  });
});

describe('upgrades and seats', () => {
  const ga = tier('tier_01A', 0, 3000);
  const stalls = tier('tier_01S', 1, 5000, { seated: true });
  const request = (tierId: string) => ({ ticket_id: 'tkt_1', tier_id: tierId, payment: { reference: 'up', amount: 2000 } });

  it('offers no seated tier, and nothing to a seated ticket', () => {
    expect(upgradeOptions(ga, [ga, stalls, tier('tier_01B', 1, 5000)], startsAt, now).map((option) => option.tier_id)).toEqual(['tier_01B']);
    expect(upgradeOptions(tier('tier_01T', 0, 3000, { seated: true }), [tier('tier_01B', 1, 5000)], startsAt, now)).toEqual([]);
  });

  it('refuses an upgrade into a seated tier, or of a seated ticket, naming what to do instead', () => {
    expect(() => upgradePrice(ga, stalls, request(stalls.id))).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'tier_id', message: expect.stringContaining('seat holds') }));
    const seatedTicketTier = tier('tier_01T', 0, 3000, { seated: true });
    expect(() => upgradePrice(seatedTicketTier, tier('tier_01B', 1, 5000), request('tier_01B'))).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'tier_id', message: expect.stringContaining('seated tickets are not upgraded') }),
    );
    expect(upgradePrice(ga, tier('tier_01B', 1, 5000), request('tier_01B'))).toBe(2000);
  });
});
