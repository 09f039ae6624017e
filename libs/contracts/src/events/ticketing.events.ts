import type { TopicDefinition } from './envelope';

/** Seats that changed state together, all of one event. */
export interface SeatChangeFacts {
  event_id: string;
  /** "<section>:<row>:<seat>", as catalog's seat map names them. */
  seat_ids: string[];
}

/**
 * What ticketing publishes about seats, keyed by the event id so each event's seat changes stay
 * in order. Catalog keeps each seat's status from these for GET /v1/events/{id}/seatmap.
 * `seat.released` makes seats available again (a hold expired or was dropped, a ticket refunded).
 */
export interface TicketingSeatPayloads extends Record<string, unknown> {
  'seat.held': SeatChangeFacts & { hold_id: string };
  'seat.released': SeatChangeFacts;
  'seat.sold': SeatChangeFacts;
}

export const TICKETING_SEAT_TOPIC: TopicDefinition<TicketingSeatPayloads> = {
  name: 'ticketing.seat.v1',
  types: ['seat.held', 'seat.released', 'seat.sold'],
};
