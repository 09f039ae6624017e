import { RESERVATION_KIND_MESSAGES, type ReservationKind } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import type { EventStatus } from './event-status';
import { integerInRange } from '@ticketing/fields';
import { MAX_CAPACITY, type CatalogTier } from './tier';

/**
 * Inventory reservations (decision 0029): units of a tier held for a buyer until committed
 * (sold) or released (available again), by the caller or, once expired, by the sweeper.
 */
export { type ReservationKind };
export const RESERVATION_KINDS = Object.keys(RESERVATION_KIND_MESSAGES) as ReservationKind[];
export type ReservationStatus = 'held' | 'committed' | 'released';
/** What a held reservation becomes when it is settled. */
export type Settlement = Exclude<ReservationStatus, 'held'>;

export interface CatalogReservation {
  id: string;
  mode: string;
  event_id: string;
  tier_id: string;
  kind: ReservationKind;
  quantity: number;
  status: ReservationStatus;
  expires_at: Date;
  created_at: Date;
  committed_at: Date | null;
  released_at: Date | null;
}

/** A reservation with its tier as the same call left it. */
export interface ReservationView {
  reservation: CatalogReservation;
  tier: CatalogTier;
}

export const DEFAULT_RESERVATION_TTL_SECONDS = 600;
export const MAX_RESERVATION_TTL_SECONDS = 3600;

/** What a caller asks to hold; checked, with the expiry worked out. */
export interface ReservationRequest {
  id: string;
  event_id: string;
  tier_id: string;
  kind: ReservationKind;
  quantity: number;
  expires_at: Date;
}

export const validQuantity = (quantity: number) => integerInRange(quantity, 'quantity', 1, MAX_CAPACITY);

/** 0 (proto3's "not set") means the default. */
export function validTtlSeconds(ttlSeconds: number): number {
  return ttlSeconds === 0 ? DEFAULT_RESERVATION_TTL_SECONDS : integerInRange(ttlSeconds, 'ttl_seconds', 1, MAX_RESERVATION_TTL_SECONDS);
}

/** When the tier's sales close: its own end or, without one, the start of its event (as the API documents a null `sales_end_at`). */
const salesEnd = (tier: Pick<CatalogTier, 'sales_end_at'>, eventStartsAt: Date) => tier.sales_end_at ?? eventStartsAt;

/** True when the tier sells at `at`: on or after its start, before its end. */
function isWithinSalesWindow(tier: Pick<CatalogTier, 'sales_start_at' | 'sales_end_at'>, eventStartsAt: Date, at: Date): boolean {
  return (tier.sales_start_at === null || tier.sales_start_at <= at) && salesEnd(tier, eventStartsAt) > at;
}

/** What a refused reservation is explained by: its tier and event, null for what the tenant does not have. */
export interface RefusalFacts {
  tier: CatalogTier | null;
  event: { status: EventStatus; startsAt: Date } | null;
}

/**
 * Why tickets of `tiers` cannot be had now, as `kind`, or null when they can: a canceled or
 * completed event takes no more tickets; a sale also needs the event published and each tier
 * within its sales window. Reservations and seat holds for a sale answer alike (decision 0033).
 */
export function notOnSaleRefusal(
  kind: ReservationKind,
  event: { status: EventStatus; startsAt: Date },
  tiers: ReadonlyArray<Pick<CatalogTier, 'id' | 'sales_start_at' | 'sales_end_at'>>,
  at: Date,
): ApiError | null {
  if (event.status === 'canceled' || event.status === 'completed') return new ApiError('event_not_on_sale', `The event is ${event.status}; it takes no more tickets.`);
  if (kind === 'sale' && event.status !== 'published') return new ApiError('event_not_on_sale', `The event is ${event.status}; only a published event sells tickets.`);
  if (kind === 'comp') return null;
  const closed = tiers.find((tier) => !isWithinSalesWindow(tier, event.startsAt, at));
  return closed ? new ApiError('tier_not_on_sale', `Tier '${closed.id}' is not on sale now: ${salesWindowText(closed, event.startsAt)}.`) : null;
}

/**
 * Why a reservation was refused, worked out after the conditional update took nothing: the
 * event (404, it is the path's) or the tier is missing, the event or tier does not sell now,
 * the quantity is outside the tier's per-order limits, or (when every rule holds) there are
 * not enough units left.
 */
export function reservationRefusal(request: ReservationRequest, { tier, event }: RefusalFacts, at: Date): ApiError {
  if (event === null) return ApiError.resourceMissing('event', request.event_id);
  if (tier === null) return new ApiError('resource_missing', `No such tier: '${request.tier_id}' in event '${request.event_id}'.`, { param: 'tier_id' });
  const notOnSale = notOnSaleRefusal(request.kind, event, [tier], at);
  if (notOnSale) return notOnSale;
  if (request.kind === 'sale') {
    const limitRefusal = perOrderRefusal(tier, request.quantity);
    if (limitRefusal) return limitRefusal;
  }
  return soldOut(tier, request.quantity);
}

/**
 * Not enough units left. Units held by orders still in progress are not sold: they go back on
 * sale if those orders are not completed (within a minute), so the message says so, and a
 * client can tell "try again shortly" from "sold out for good".
 */
function soldOut(tier: CatalogTier, quantity: number): ApiError {
  const available = tier.capacity - tier.held - tier.sold;
  if (tier.held === 0) {
    return new ApiError('sold_out', available === 0 ? `Tier '${tier.id}' is sold out.` : `Tier '${tier.id}' has ${available} left, fewer than the ${quantity} asked for.`);
  }
  const left = available === 0 ? `Tier '${tier.id}' has none left to sell now.` : `Tier '${tier.id}' has ${available} left, fewer than the ${quantity} asked for.`;
  const held = tier.held === 1 ? '1 more is held by an order in progress and goes' : `${tier.held} more are held by orders in progress and go`;
  return new ApiError('sold_out', `${left} ${held} back on sale if not completed.`);
}

function perOrderRefusal(tier: CatalogTier, quantity: number): ApiError | null {
  if (quantity < tier.min_per_order) return new ApiError('parameter_invalid', `quantity must be at least ${tier.min_per_order} for tier '${tier.id}'.`, { param: 'quantity' });
  if (tier.max_per_order !== null && quantity > tier.max_per_order) {
    return new ApiError('parameter_invalid', `quantity must be at most ${tier.max_per_order} for tier '${tier.id}'.`, { param: 'quantity' });
  }
  return null;
}

function salesWindowText(tier: Pick<CatalogTier, 'sales_start_at' | 'sales_end_at'>, eventStartsAt: Date): string {
  const from = tier.sales_start_at ? `from ${tier.sales_start_at.toISOString()} ` : '';
  const until = tier.sales_end_at ? `until ${tier.sales_end_at.toISOString()}` : `until its event starts at ${eventStartsAt.toISOString()}`;
  return `it sells ${from}${until}`;
}

/** The same reservation id asked again for something else: a caller bug, never silently merged. */
export function assertSameReservation(existing: CatalogReservation, request: ReservationRequest): void {
  if (existing.tier_id !== request.tier_id || existing.event_id !== request.event_id || existing.quantity !== request.quantity || existing.kind !== request.kind) {
    throw new ApiError(
      'idempotency_key_reused',
      `Reservation '${request.id}' was made for ${existing.quantity} of tier '${existing.tier_id}' (${existing.kind}); use a new reservation id for another request.`,
      { param: 'reservation_id' },
    );
  }
}

/**
 * A settlement that found the reservation no longer held: the same settlement again is a
 * replay (null: answer with the reservation as it is); the other one is refused.
 */
export function settlementRefusal(reservation: CatalogReservation, settlement: Settlement): ApiError | null {
  if (reservation.status === settlement) return null;
  switch (reservation.status) {
    case 'released': {
      const onExpiry = reservation.released_at !== null && reservation.released_at >= reservation.expires_at;
      return new ApiError('reservation_released', `Reservation '${reservation.id}' was released${onExpiry ? ' when it expired' : ''}; its units are no longer held.`);
    }
    case 'committed':
      return new ApiError('reservation_committed', `Reservation '${reservation.id}' is committed: its units are sold and can only come back through refunds.`);
    case 'held':
      throw new Error(`reservation ${reservation.id} is still held after a settlement found it settled`);
  }
}

/** Sold units of a committed reservation to give back to its tier, under an id the caller chose. */
export interface ReturnRequest {
  id: string;
  reservation_id: string;
  quantity: number;
}

/** A return made, with the units its reservation has given back so far and the tier after it. */
export interface ReturnView {
  request: ReturnRequest;
  reservationReturned: number;
  tier: CatalogTier;
}

/** Why a return gave nothing back: the reservation never sold its units, or too few are still sold. */
export function returnRefusal(request: ReturnRequest, reservationStatus: ReservationStatus, returned: number, sold: 'not_committed' | 'exceeds'): ApiError {
  if (sold === 'exceeds') {
    return new ApiError('parameter_invalid', `Reservation '${request.reservation_id}' has ${returned} of its units returned already; ${request.quantity} more would be more than it sold.`, {
      param: 'quantity',
    });
  }
  if (reservationStatus === 'released') return new ApiError('reservation_released', `Reservation '${request.reservation_id}' was released: its units were never sold.`);
  return new ApiError('reservation_not_committed', `Reservation '${request.reservation_id}' is still held: release it instead of returning its units.`);
}
