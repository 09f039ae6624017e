import { MAX_SEATS_PER_HOLD, SEAT_HOLD_PURPOSES, type SeatHoldPurpose } from '@ticketing/contracts';

export type { SeatHoldPurpose };
import { ApiError } from '@ticketing/errors';
import { integerInRange, requiredIdParam } from '@ticketing/fields';

/**
 * Seat holds (decision 0033): seats of one event held all or none while a buyer checks out,
 * until released, or expired by the sweeper at `expires_at`.
 */
export type SeatHoldStatus = 'active' | 'released' | 'expired' | 'sold';

export interface HeldSeat {
  /** "<section>:<row>:<seat>", as catalog's seat map names it. */
  id: string;
  tier_id: string;
}

export interface TicketingSeatHold {
  id: string;
  mode: string;
  event_id: string;
  seats: HeldSeat[];
  status: SeatHoldStatus;
  expires_at: Date;
  created_at: Date;
  released_at: Date | null;
  /** The recorded issuance selling the hold's seats; the hold no longer expires or releases. */
  issuance_id: string | null;
  /** The issuance that took the hold before holding units for its seats, until it is recorded (then issuance_id). */
  taken_by: string | null;
  /** When the hold was taken for an order intent (decision 0062): until when it stays taken, the order unpaid. */
  taken_until: Date | null;
  purpose: SeatHoldPurpose;
  /** The waiting-room admission the hold was made with; only it sells the hold (decision 0034). */
  admission_entry_id: string | null;
}

/**
 * How long past its expiry a hold taken by an issuance that was never recorded stays taken: more
 * than the units an issuance holds in catalog live (ISSUANCE_HOLD_SECONDS), so such an issuance
 * is certainly dead when its hold ends.
 */
export const UNRECORDED_GRACE_MS = 2 * 60_000;

export const DEFAULT_SEAT_HOLD_TTL_SECONDS = 600;
export const MAX_SEAT_HOLD_TTL_SECONDS = 1800;
const SEAT_ID = /^[^:\s][^:]{0,19}:[^:\s][^:]{0,19}:[^:\s][^:]{0,19}$/;

export interface SeatHoldRequest {
  event_id: string;
  seat_ids: string[];
  ttl_seconds: number;
  purpose: SeatHoldPurpose;
}

/**
 * Checks a hold request: 1 to 50 distinct seat ids in catalog's form, a TTL (0: the default) and
 * a purpose (empty: a sale); a comp hold names no admission, since it needs none.
 */
export function validSeatHoldRequest(command: { event_id: string; seat_ids: string[]; ttl_seconds: number; purpose?: string; admission_token?: string }): SeatHoldRequest {
  const purpose = command.purpose || 'sale';
  if (!isPurpose(purpose)) throw new ApiError('parameter_invalid', `purpose must be one of ${SEAT_HOLD_PURPOSES.join(', ')}, not '${purpose}'.`, { param: 'purpose' });
  if (purpose === 'comp' && command.admission_token) {
    throw new ApiError('parameter_invalid', 'A hold for comps needs no admission; leave admission_token out.', { param: 'admission_token' });
  }
  if (command.seat_ids.length === 0) throw new ApiError('parameter_missing', 'Missing required parameter: seats (one or more seat ids).', { param: 'seats' });
  if (command.seat_ids.length > MAX_SEATS_PER_HOLD) throw new ApiError('parameter_invalid', `seats can hold at most ${MAX_SEATS_PER_HOLD} seats.`, { param: 'seats' });
  // Composed (NFC), as catalog stores seat labels: the same seat typed either way is one seat.
  const seatIds = command.seat_ids.map((seatId) => seatId.normalize('NFC'));
  seatIds.forEach((seatId, index) => {
    if (!SEAT_ID.test(seatId)) throw new ApiError('parameter_invalid', `seats[${index}] must be a seat id "<section>:<row>:<seat>".`, { param: `seats[${index}]` });
    if (seatIds.indexOf(seatId) !== index) throw new ApiError('parameter_invalid', `seats[${index}] names seat '${seatId}' a second time.`, { param: `seats[${index}]` });
  });
  return {
    event_id: requiredIdParam(command.event_id, 'event_id'),
    seat_ids: seatIds,
    ttl_seconds: command.ttl_seconds === 0 ? DEFAULT_SEAT_HOLD_TTL_SECONDS : integerInRange(command.ttl_seconds, 'ttl_seconds', 1, MAX_SEAT_HOLD_TTL_SECONDS),
    purpose,
  };
}

function isPurpose(purpose: string): purpose is SeatHoldPurpose {
  return (SEAT_HOLD_PURPOSES as readonly string[]).includes(purpose);
}

/**
 * A hold's seats all sell under one tier, as the issuance that sells them does: a hold mixing
 * tiers could never be sold, and would keep its seats from everyone until it expired.
 */
export function assertOneTier(seats: readonly HeldSeat[]): void {
  const [first] = seats;
  const other = seats.find((seat) => seat.tier_id !== first!.tier_id);
  if (!other) return;
  throw new ApiError(
    'parameter_invalid',
    `A hold's seats must all sell under one tier, as an issuance sells one tier: '${first!.id}' sells under '${first!.tier_id}', '${other.id}' under '${other.tier_id}'. Hold each tier's seats separately.`,
    { param: 'seats' },
  );
}

/** Some of the seats are held or sold already: nothing was held, and the client learns which. */
export function seatsUnavailable(taken: readonly string[]): ApiError {
  const names = taken.map((seat) => `'${seat}'`).join(', ');
  return new ApiError('seats_unavailable', `${taken.length === 1 ? 'Seat' : 'Seats'} ${names} ${taken.length === 1 ? 'is' : 'are'} already taken; no seat was held.`, { param: 'seats' });
}

/**
 * The hold cannot be used or released: it ended, or an issuance took it. `param`: the request
 * field that named the hold (none when the URL did, as in a release).
 */
export function seatHoldUnavailable(hold: TicketingSeatHold, at: Date, param: string | null = 'seat_hold_id'): ApiError {
  return new ApiError('seat_hold_unavailable', `Seat hold '${hold.id}' ${whyUnavailable(hold, at)}.`, { param: param ?? undefined });
}

function whyUnavailable(hold: TicketingSeatHold, at: Date): string {
  if (hold.status === 'sold') return `was sold by issuance '${hold.issuance_id}'; its seats are sold`;
  if (hold.issuance_id) return `is being sold by issuance '${hold.issuance_id}'; if that issuance is refused, the hold is free again until it expires`;
  if (hold.taken_by && hold.taken_until) return `is taken by an order awaiting its payment (issuance '${hold.taken_by}'); unpaid, it is free again at ${hold.taken_until.toISOString()}`;
  if (hold.taken_by) {
    // Taken by a sale not recorded yet: its call is on its way, or died (then nothing can refuse it).
    const freedAt = new Date(hold.expires_at.getTime() + UNRECORDED_GRACE_MS).toISOString();
    return `is taken by a sale still on its way (issuance '${hold.taken_by}'); retry that sale under its Idempotency-Key to get its outcome. If that call was cut off, the hold ends at ${freedAt}`;
  }
  return `${hold.status === 'active' && hold.expires_at <= at ? 'has expired' : `is ${hold.status}`}; hold the seats again`;
}

/**
 * Checks that an issuance can sell the hold's seats: the hold is of the issuance's event, a comp
 * hold only to a comp, active and not taken, and holds exactly `quantity` seats, all of the
 * issuance's tier.
 */
export function assertHoldCovers(hold: TicketingSeatHold, order: { event_id: string; tier_id: string; quantity: number; kind: 'sale' | 'comp' }, at: Date): void {
  if (hold.event_id !== order.event_id) throw ApiError.resourceMissing('seat hold', hold.id, 'seat_hold_id');
  if (hold.purpose === 'comp' && order.kind === 'sale') {
    throw new ApiError('parameter_invalid', `Seat hold '${hold.id}' is held for comps (POST /v1/events/${hold.event_id}/comps); a sale needs a hold made for a sale.`, { param: 'seat_hold_id' });
  }
  if (hold.status !== 'active' || hold.issuance_id !== null || hold.taken_by !== null || hold.expires_at <= at) throw seatHoldUnavailable(hold, at);
  const otherTier = hold.seats.find((seat) => seat.tier_id !== order.tier_id);
  if (otherTier) throw new ApiError('parameter_invalid', `Seat '${otherTier.id}' of seat hold '${hold.id}' sells under tier '${otherTier.tier_id}', not '${order.tier_id}'.`, { param: 'seat_hold_id' });
  if (hold.seats.length !== order.quantity) {
    throw new ApiError('parameter_invalid', `quantity must be ${hold.seats.length}, the number of seats seat hold '${hold.id}' holds.`, { param: 'quantity' });
  }
}
