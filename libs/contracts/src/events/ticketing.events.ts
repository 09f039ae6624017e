import { z } from 'zod';
import { defineTopic, type PayloadsOf } from './envelope';

/** Seats that changed state together, all of one event. */
export const seatChangeFactsSchema = z.object({
  event_id: z.string().min(1),
  /** "<section>:<row>:<seat>", as catalog's seat map names them. */
  seat_ids: z.array(z.string().min(1)).min(1),
});
export type SeatChangeFacts = z.infer<typeof seatChangeFactsSchema>;

/**
 * What ticketing publishes about seats, keyed by the event id so each event's seat changes stay
 * in order. Catalog keeps each seat's status from these for GET /v1/events/{id}/seatmap.
 * `seat.released` makes seats available again (a hold expired or was dropped, a ticket refunded).
 */
export const TICKETING_SEAT_TOPIC = defineTopic('ticketing.seat.v1', {
  'seat.held': seatChangeFactsSchema.extend({ hold_id: z.string().min(1) }),
  'seat.released': seatChangeFactsSchema,
  'seat.sold': seatChangeFactsSchema,
});
export type TicketingSeatPayloads = PayloadsOf<typeof TICKETING_SEAT_TOPIC>;
