import { z } from 'zod';
import { MAX_SEATS_PER_HOLD } from '../ticketing-values';
import { defineTopic, type PayloadsOf } from './envelope';

/** Seats that changed state together, all of one event. */
export const seatChangeFactsSchema = z.object({
  event_id: z.string().min(1),
  /** "<section>:<row>:<seat>", as catalog's seat map names them; a hold's seats at most. */
  seat_ids: z.array(z.string().min(1)).min(1).max(MAX_SEATS_PER_HOLD),
});
export type SeatChangeFacts = z.infer<typeof seatChangeFactsSchema>;

/**
 * What ticketing publishes about seats, keyed by the event id so each event's seat changes stay
 * in order. Catalog keeps each seat's status from these for GET /v1/events/{id}/seatmap.
 * `seat.held` and `seat.released` are also the seat hold's own lifecycle (decision 0033):
 * `seat.released` makes seats available again, saying why: a hold released or expired, or a
 * seated ticket refunded or revoked (then without `hold_id`).
 */
export const TICKETING_SEAT_TOPIC = defineTopic('ticketing.seat.v1', {
  'seat.held': seatChangeFactsSchema.extend({ hold_id: z.string().min(1), expires_at: z.string().optional() }),
  'seat.released': seatChangeFactsSchema.extend({ hold_id: z.string().optional(), reason: z.enum(['released', 'expired', 'refunded', 'revoked']).optional() }),
  'seat.sold': seatChangeFactsSchema,
});
export type TicketingSeatPayloads = PayloadsOf<typeof TICKETING_SEAT_TOPIC>;

/** Tickets that changed together: all of one issuance, event and holder. */
export const ticketFactsSchema = z.object({
  event_id: z.string().min(1),
  tier_id: z.string().min(1),
  issuance_id: z.string().min(1),
  customer_id: z.string().min(1),
  ticket_ids: z.array(z.string().min(1)).min(1),
  /** What the holder paid for all of them, in minor units of `currency`; 0 for comps. */
  amount: z.number().int().nonnegative(),
  currency: z.string().length(3),
  kind: z.enum(['sale', 'comp']),
  /** The discount that priced the sale (decision 0038); null when none did. */
  discount_id: z.string().min(1).nullable(),
  /** The issuance request's own keys ({} when it gave none); absent from messages published before it was added. */
  metadata: z.record(z.string(), z.string()).default({}),
});
export type TicketFacts = z.infer<typeof ticketFactsSchema>;

/** One ticket after a change (decision 0032): the holder, status and code version it now has. */
export const ticketChangeFactsSchema = z.object({
  change_id: z.string().min(1),
  ticket_id: z.string().min(1),
  event_id: z.string().min(1),
  tier_id: z.string().min(1),
  customer_id: z.string().min(1),
  status: z.string().min(1),
  code_version: z.number().int().positive(),
  /** What the holder paid for the ticket, in minor units of `currency`. */
  price: z.number().int().nonnegative(),
  currency: z.string().length(3),
  reason: z.string().nullable(),
});
export type TicketChangeFacts = z.infer<typeof ticketChangeFactsSchema>;

/** Keyed by the event id, so one event's ticket changes stay in order. */
export const TICKETING_TICKET_TOPIC = defineTopic('ticketing.ticket.v1', {
  'ticket.issued': ticketFactsSchema,
  /** A new holder and a new code: the old code no longer scans. */
  'ticket.transferred': ticketChangeFactsSchema.extend({ from_customer_id: z.string().min(1) }),
  /**
   * `payment` says how the ticket was paid (decision 0064): a payment intent's money is returned
   * by payments; null for a comp; absent from messages published before it was added.
   */
  'ticket.refunded': ticketChangeFactsSchema.extend({
    payment: z
      .object({ type: z.enum(['external', 'payment_intent']), reference: z.string().min(1) })
      .nullable()
      .default(null),
  }),
  'ticket.revoked': ticketChangeFactsSchema,
  /** A new tier and a new code; the old unit is back on sale. */
  'ticket.upgraded': ticketChangeFactsSchema.extend({ from_tier_id: z.string().min(1), amount: z.number().int().nonnegative() }),
  /** Its event was canceled (decision 0032). */
  'ticket.canceled': ticketChangeFactsSchema,
});
export type TicketingTicketPayloads = PayloadsOf<typeof TICKETING_TICKET_TOPIC>;

/** Waiting-room changes (decision 0034), keyed by the event id. */
export const TICKETING_QUEUE_TOPIC = defineTopic('ticketing.queue.v1', {
  'queue.joined': z.object({ event_id: z.string().min(1), entry_id: z.string().min(1) }),
  'queue.admitted': z.object({ event_id: z.string().min(1), entry_ids: z.array(z.string().min(1)).min(1) }),
  'queue.left': z.object({ event_id: z.string().min(1), entry_id: z.string().min(1) }),
});
export type TicketingQueuePayloads = PayloadsOf<typeof TICKETING_QUEUE_TOPIC>;
