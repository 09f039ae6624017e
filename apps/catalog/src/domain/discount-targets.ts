import { ApiError } from '@ticketing/errors';
import type { DiscountAppliesTo, DiscountValue } from './discount';

/** The tenant's events and tiers a discount or trigger names, with the currency each is sold in. */
export interface KnownTargets {
  eventCurrencies: ReadonlyMap<string, string>;
  tierCurrencies: ReadonlyMap<string, string>;
  /** The event of each tier found. */
  tierEvents: ReadonlyMap<string, string>;
}

function assertKnown(ids: readonly string[], known: ReadonlyMap<string, string>, resource: string, param: string): void {
  ids.forEach((id, index) => {
    if (!known.has(id)) throw ApiError.resourceMissing(resource, id, `${param}[${index}]`);
  });
}

/**
 * Every id must be an event or tier of the caller's account and mode, and a fixed amount must be
 * in the currency of what it applies to: an amount in another currency could never apply.
 */
export function assertTargets(appliesTo: DiscountAppliesTo, value: DiscountValue, known: KnownTargets): void {
  assertKnown(appliesTo.event_ids, known.eventCurrencies, 'event', 'applies_to.event_ids');
  assertKnown(appliesTo.tier_ids, known.tierCurrencies, 'tier', 'applies_to.tier_ids');
  if (value.currency === null) return;
  const currencies = new Set([...appliesTo.event_ids.map((id) => known.eventCurrencies.get(id)), ...appliesTo.tier_ids.map((id) => known.tierCurrencies.get(id))]);
  for (const currency of currencies) {
    if (currency !== value.currency) {
      throw new ApiError('parameter_invalid', `currency ${value.currency} does not match ${currency}, the currency of what the discount applies to.`, {
        param: 'currency',
      });
    }
  }
}

/**
 * A bundle's tiers must be the tenant's and of one event: an order is for one event, so a bundle
 * across events could never be complete, and would only switch its discount off.
 */
export function assertBundleTiers(tierIds: readonly string[], known: KnownTargets): void {
  assertKnown(tierIds, known.tierCurrencies, 'tier', 'tier_ids');
  const eventId = known.tierEvents.get(tierIds[0]!);
  const other = tierIds.findIndex((id) => known.tierEvents.get(id) !== eventId);
  if (other !== -1) {
    throw new ApiError('parameter_invalid', `tier_ids must all be tiers of one event: '${tierIds[other]}' is not a tier of event '${eventId}', as '${tierIds[0]}' is. An order is for one event, so such a bundle could never be complete.`, {
      param: `tier_ids[${other}]`,
    });
  }
}
