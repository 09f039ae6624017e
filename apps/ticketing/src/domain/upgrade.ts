import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import { validPayment, type ExternalPayment, type PaymentIntentNamed } from './payment';

/**
 * Upgrades (decision 0032): a valid ticket moves to a higher-rank tier of the same event, paying
 * the new tier's price less what the ticket was sold for (never less than 0), so an upgraded
 * ticket has cost its holder at least the new tier's price, whatever either tier's price did
 * since. Only between unseated tiers: a seat is sold from a seat hold, so a seated ticket changes
 * seats by a refund and a seated sale (0033), and a seated tier is not offered. A tier sold only
 * by several at a time (`min_per_order` above 1) takes no single ticket, so it is not offered.
 */
export interface TierFacts {
  id: string;
  name: string;
  rank: number;
  price: number;
  currency: string;
  capacity: number;
  held: number;
  sold: number;
  seated: boolean;
  minPerOrder: number;
  /** When the tier's sales open and close; null when it has no such bound (a null end closes them when the event starts). */
  salesStartAt: Date | null;
  salesEndAt: Date | null;
}

/** Where an upgrade starts: the ticket's tier, and what the ticket was sold for (its `price`). */
export interface UpgradeFrom {
  tier: TierFacts;
  price: number;
}

export interface UpgradeOption {
  tier_id: string;
  name: string;
  rank: number;
  price: number;
  currency: string;
  /** What moving there costs, in minor units of `currency`. */
  price_difference: number;
  /** Units of the tier on sale now. */
  available: number;
}

const onSaleAt = (tier: TierFacts, eventStartsAt: Date, at: Date) => (tier.salesStartAt === null || tier.salesStartAt <= at) && (tier.salesEndAt ?? eventStartsAt) > at;

const priceDifference = (from: UpgradeFrom, target: TierFacts) => Math.max(0, target.price - from.price);

/** An upgrade moves one ticket, so a tier that sells orders of several takes none. */
function soldInOrdersOfSeveral(tierId: string, howMany: string): ApiError {
  return new ApiError('parameter_invalid', `Tier '${tierId}' sells ${howMany} per order, so no single ticket is upgraded into it.`, { param: 'tier_id' });
}

/**
 * Catalog's refusal of the upgrade's one unit, as the upgrade request words it: catalog refuses
 * a quantity the tier does not sell, and an upgrade has no quantity, only the tier (its minimum
 * per order raised after the upgrade read it, a probe found).
 */
export function asUpgradeRefusal(error: unknown, tierId: string): unknown {
  const refusesQuantity = error instanceof ApiError && error.code === 'parameter_invalid' && error.param === 'quantity';
  return refusesQuantity ? soldInOrdersOfSeveral(tierId, 'more than one ticket') : error;
}

/**
 * The unseated tiers of the event ranked above the ticket's that take a single ticket and whose
 * sales window is open at `at`, newest first (the API's list order); none for a seated ticket. A
 * tier an upgrade to which would be refused is left out.
 */
export function upgradeOptions(from: UpgradeFrom, tiers: readonly TierFacts[], eventStartsAt: Date, at: Date): UpgradeOption[] {
  if (from.tier.seated) return [];
  return tiers
    .filter((tier) => tier.rank > from.tier.rank && !tier.seated && tier.minPerOrder <= 1 && onSaleAt(tier, eventStartsAt, at))
    .sort((a, b) => (a.id < b.id ? 1 : -1))
    .map((tier) => ({
      tier_id: tier.id,
      name: tier.name,
      rank: tier.rank,
      price: tier.price,
      currency: tier.currency,
      price_difference: priceDifference(from, tier),
      available: Math.max(0, tier.capacity - tier.held - tier.sold),
    }));
}

export interface UpgradeRequest {
  ticket_id: string;
  tier_id: string;
  /** The difference: paid outside this API, or through a payment intent (decision 0064); absent when there is nothing to pay. */
  payment: ExternalPayment | PaymentIntentNamed | null;
}

/** What an upgrade holds of its new tier, under its change id: one unit, sold. */
export function upgradeUnit(request: UpgradeRequest): { tier_id: string; quantity: 1; kind: 'sale' } {
  return { tier_id: request.tier_id, quantity: 1, kind: 'sale' };
}


export function validUpgradeRequest(command: { id: string; tier_id: string; payment?: { reference: string; amount: number }; payment_intent_id?: string }): UpgradeRequest {
  return {
    ticket_id: requiredIdParam(command.id, 'id'),
    tier_id: requiredIdParam(command.tier_id, 'tier_id'),
    payment: validPayment(command.payment, command.payment_intent_id),
  };
}

/**
 * The difference to pay for moving `from` a ticket's tier to `target`, once the move is allowed
 * (a higher-rank tier of the event that takes a single ticket) and the payment covers it exactly.
 */
export function upgradePrice(from: UpgradeFrom, target: TierFacts | undefined, request: UpgradeRequest): number {
  const current = from.tier;
  if (!target) throw ApiError.resourceMissing('tier', request.tier_id, 'tier_id');
  // A repeated upgrade (a double submit) lands here too, whatever the timing: one wins.
  if (target.id === current.id) throw new ApiError('ticket_changed', `Ticket '${request.ticket_id}' is already of tier '${target.id}'; nothing was changed.`, { param: 'tier_id' });
  if (current.seated) {
    const instead = target.seated ? `sell a seat of tier '${target.id}' from a seat hold` : `issue a ticket of tier '${target.id}'`;
    throw new ApiError('parameter_invalid', `Ticket '${request.ticket_id}' has a seat: seated tickets are not upgraded. Refund it and ${instead}.`, { param: 'tier_id' });
  }
  if (target.seated) {
    throw new ApiError('parameter_invalid', `Tier '${target.id}' is seated: its seats are sold from seat holds (POST /v1/events/{id}/seats/hold), not by upgrade.`, { param: 'tier_id' });
  }
  if (target.rank <= current.rank) {
    throw new ApiError('parameter_invalid', `Tier '${target.id}' (rank ${target.rank}) does not rank above the ticket's tier (rank ${current.rank}); see GET /v1/tickets/${request.ticket_id}/upgrade-options.`, {
      param: 'tier_id',
    });
  }
  if (target.minPerOrder > 1) throw soldInOrdersOfSeveral(target.id, `at least ${target.minPerOrder} tickets`);
  const difference = priceDifference(from, target);
  if (difference > 0 && !request.payment) throw new ApiError('parameter_missing', `Missing required parameter: payment (the price difference, ${difference} in minor units of ${current.currency}).`, { param: 'payment' });
  if (request.payment?.type === 'payment_intent') {
    // Payments checks the intent is of exactly the difference when the upgrade claims it.
    if (difference === 0) throw new ApiError('parameter_invalid', 'This upgrade costs nothing: leave payment out.', { param: 'payment' });
    return difference;
  }
  const paid = request.payment?.amount ?? 0;
  if (paid !== difference) throw new ApiError('parameter_invalid', `payment.amount must be ${difference} (minor units of ${current.currency}), the price difference.`, { param: 'payment.amount' });
  return difference;
}
