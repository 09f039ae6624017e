import { ApiError } from '@ticketing/errors';

/**
 * The waiting room (decision 0034): while an event's room is enabled, buyers join a queue and
 * are admitted first in, first out, at the event's admission rate; each admitted entry gets a
 * signed admission token that lets one issuance through before it expires.
 */
export type QueueEntryStatus = 'waiting' | 'admitted' | 'left';

export interface QueueEntry {
  id: string;
  event_id: string;
  status: QueueEntryStatus;
  /** 1 for the next entry to be admitted; null once admitted or left. */
  position: number | null;
  joined_at: Date;
  admitted_at: Date | null;
  /** Until when its admission token lets an issuance through; null until admitted. */
  admission_expires_at: Date | null;
}

export interface QueueState {
  event_id: string;
  /** Entries waiting now. */
  length: number;
  /** Entries admitted since the room opened. */
  admitted: number;
  admission_rate_per_minute: number;
}

/** How long an admitted entry's token lets an issuance through. */
export const ADMISSION_TOKEN_TTL_SECONDS = 600;

export function waitingRoomDisabled(eventId: string): ApiError {
  return new ApiError('waiting_room_disabled', `Event '${eventId}' has no waiting room enabled; issue tickets without joining a queue.`);
}

export function admissionRefused(reason: 'required' | 'invalid' | 'left' | 'used', eventId: string): ApiError {
  switch (reason) {
    case 'required':
      return new ApiError('admission_token_required', `Event '${eventId}' sells through its waiting room: join the queue (POST /v1/events/${eventId}/queue/join) and pass the admission_token you get once admitted.`, {
        param: 'admission_token',
      });
    case 'invalid':
      return new ApiError('admission_token_invalid', `admission_token is not a valid, unexpired admission to event '${eventId}'.`, { param: 'admission_token' });
    case 'left':
      return new ApiError('admission_token_invalid', `This admission_token's entry left the waiting room of event '${eventId}', giving its admission up; join the queue again.`, {
        param: 'admission_token',
      });
    case 'used':
      return new ApiError('admission_token_used', 'This admission_token was already used by an issuance; each admission lets one issuance through.', { param: 'admission_token' });
  }
}

/**
 * An admission holding seats (`held`) is for selling that hold (decision 0034): it holds no
 * other seats and buys nothing else until the hold is sold or released.
 */
export function admissionHoldsSeats(held: { id: string; event_id: string; expires_at: Date }): ApiError {
  return new ApiError(
    'admission_holds_seats',
    `This admission_token holds seats in seat hold '${held.id}' (until ${held.expires_at.toISOString()}). Sell that hold with it, or release the hold (DELETE /v1/events/${held.event_id}/seats/hold/${held.id}) before using the admission for other seats or tickets.`,
    { param: 'admission_token' },
  );
}

/** A seat hold made through the waiting room sells only with the admission it was made with. */
export function heldWithAnotherAdmission(holdId: string): ApiError {
  return new ApiError('admission_token_invalid', `Seat hold '${holdId}' was made with another admission; sell it with the admission_token it was held with.`, { param: 'admission_token' });
}
