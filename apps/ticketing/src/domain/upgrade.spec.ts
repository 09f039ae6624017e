import { upgradeOptions, upgradePrice, type TierFacts, type UpgradeFrom } from './upgrade';

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
  minPerOrder: 1,
  salesStartAt: null,
  salesEndAt: null,
  ...counters,
});
/** A ticket of `tier`, sold at its list price unless `price` says otherwise. */
const ticketOf = (tier: TierFacts, price = tier.price): UpgradeFrom => ({ tier, price });
const now = new Date('2027-06-01T12:00:00Z');
const startsAt = new Date('2027-06-02T19:00:00Z');

describe('upgradeOptions', () => {
  const ga = ticketOf(tier('tier_01A', 0, 3000));

  it('offers only higher-rank tiers, newest first, with the price difference and what is left', () => {
    const options = upgradeOptions(ga, [ga.tier, tier('tier_01B', 1, 5000, { held: 2, sold: 3 }), tier('tier_01C', 2, 9000), tier('tier_01D', 0, 4000)], startsAt, now);
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
  const ga = ticketOf(tier('tier_01A', 0, 3000));
  const stalls = tier('tier_01S', 1, 5000, { seated: true });
  const request = (tierId: string) => ({ ticket_id: 'tkt_1', tier_id: tierId, payment: { type: 'external' as const, reference: 'up', amount: 2000 } });

  it('offers no seated tier, and nothing to a seated ticket', () => {
    expect(upgradeOptions(ga, [ga.tier, stalls, tier('tier_01B', 1, 5000)], startsAt, now).map((option) => option.tier_id)).toEqual(['tier_01B']);
    expect(upgradeOptions(ticketOf(tier('tier_01T', 0, 3000, { seated: true })), [tier('tier_01B', 1, 5000)], startsAt, now)).toEqual([]);
  });

  it('refuses an upgrade into a seated tier, or of a seated ticket, naming what to do instead', () => {
    expect(() => upgradePrice(ga, stalls, request(stalls.id))).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'tier_id', message: expect.stringContaining('seat holds') }));
    const seatedTicket = ticketOf(tier('tier_01T', 0, 3000, { seated: true }));
    expect(() => upgradePrice(seatedTicket, tier('tier_01B', 1, 5000), request('tier_01B'))).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'tier_id', message: expect.stringMatching(/seated tickets are not upgraded\. Refund it and issue a ticket of tier 'tier_01B'\.$/) }),
    );
    expect(() => upgradePrice(seatedTicket, { ...stalls, rank: 2 }, request(stalls.id))).toThrow(expect.objectContaining({ message: expect.stringContaining(`sell a seat of tier '${stalls.id}' from a seat hold`) }));
    expect(upgradePrice(ga, tier('tier_01B', 1, 5000), request('tier_01B'))).toBe(2000);
  });
});

describe('what an upgrade costs', () => {
  const ga = tier('tier_01A', 0, 3000);
  const vip = tier('tier_01V', 1, 5000);
  const request = (amount: number) => ({ ticket_id: 'tkt_1', tier_id: vip.id, payment: { type: 'external' as const, reference: 'up', amount } });

  it('charges the new tier’s price less what the ticket was sold for, whatever the ticket’s tier costs now', () => {
    // Sold at 3000; GA's price since lowered to 1500, or raised to 4500.
    for (const gaNow of [{ ...ga, price: 1500 }, { ...ga, price: 4500 }]) {
      expect(upgradeOptions(ticketOf(gaNow, 3000), [vip], startsAt, now)[0]).toMatchObject({ price_difference: 2000 });
      expect(upgradePrice(ticketOf(gaNow, 3000), vip, request(2000))).toBe(2000);
      expect(() => upgradePrice(ticketOf(gaNow, 3000), vip, request(5000 - gaNow.price))).toThrow(expect.objectContaining({ param: 'payment.amount' }));
    }
  });

  it('asks for the missing payment in minor units, as every amount is', () => {
    expect(() => upgradePrice(ticketOf(ga, 3000), vip, { ticket_id: 'tkt_1', tier_id: vip.id, payment: null })).toThrow(
      expect.objectContaining({ code: 'parameter_missing', param: 'payment', message: 'Missing required parameter: payment (the price difference, 2000 in minor units of EUR).' }),
    );
  });

  it('charges a comp or a discounted ticket up to the new tier’s price, and nothing for a ticket sold above it', () => {
    expect(upgradePrice(ticketOf(ga, 0), vip, request(5000))).toBe(5000);
    expect(upgradePrice(ticketOf(ga, 2400), vip, request(2600))).toBe(2600);
    expect(upgradeOptions(ticketOf(ga, 6000), [vip], startsAt, now)[0]).toMatchObject({ price_difference: 0 });
  });

  it('neither offers nor upgrades into a tier sold only by several tickets at a time', () => {
    const pairs = tier('tier_01P', 1, 5000, { minPerOrder: 2 });
    expect(upgradeOptions(ticketOf(ga), [pairs, vip], startsAt, now).map((option) => option.tier_id)).toEqual([vip.id]);
    expect(() => upgradePrice(ticketOf(ga), pairs, { ...request(2000), tier_id: pairs.id })).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'tier_id', message: expect.stringContaining('at least 2 tickets per order') }),
    );
  });
});
