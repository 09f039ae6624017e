import { assertBundleTiers, assertTargets, type KnownTargets } from './discount-targets';

const known: KnownTargets = {
  eventCurrencies: new Map([
    ['evt_eur', 'EUR'],
    ['evt_usd', 'USD'],
  ]),
  tierCurrencies: new Map([
    ['tier_eur', 'EUR'],
    ['tier_eur_2', 'EUR'],
    ['tier_usd', 'USD'],
  ]),
  tierEvents: new Map([
    ['tier_eur', 'evt_eur'],
    ['tier_eur_2', 'evt_eur'],
    ['tier_usd', 'evt_usd'],
  ]),
};
const percent = { percent_off: 10, amount_off: null, currency: null };
const euros = { percent_off: null, amount_off: 500, currency: 'EUR' };

describe('what a discount names', () => {
  it('accepts the tenant’s events and tiers', () => {
    expect(() => assertTargets({ event_ids: ['evt_eur', 'evt_usd'], tier_ids: ['tier_eur'] }, percent, known)).not.toThrow();
    expect(() => assertTargets({ event_ids: ['evt_eur'], tier_ids: ['tier_eur'] }, euros, known)).not.toThrow();
  });

  it('refuses unknown ids as a 400 naming the item', () => {
    expect(() => assertTargets({ event_ids: ['evt_eur', 'evt_gone'], tier_ids: [] }, percent, known)).toThrow(
      expect.objectContaining({ code: 'resource_missing', param: 'applies_to.event_ids[1]', status: 400 }),
    );
    expect(() => assertTargets({ event_ids: [], tier_ids: ['tier_gone'] }, percent, known)).toThrow(expect.objectContaining({ param: 'applies_to.tier_ids[0]' }));
    expect(() => assertBundleTiers(['tier_eur', 'tier_gone'], known)).toThrow(expect.objectContaining({ param: 'tier_ids[1]' }));
  });

  it('takes a bundle of tiers of one event, and refuses one across events, naming the first tier of another', () => {
    expect(() => assertBundleTiers(['tier_eur', 'tier_eur_2'], known)).not.toThrow();
    expect(() => assertBundleTiers(['tier_eur', 'tier_eur_2', 'tier_usd'], known)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'tier_ids[2]', status: 400 }));
  });

  it('refuses an amount in a currency other than what it applies to', () => {
    expect(() => assertTargets({ event_ids: ['evt_usd'], tier_ids: [] }, euros, known)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'currency' }));
  });
});
