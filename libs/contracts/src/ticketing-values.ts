import { ReservationKind as ReservationKindMessage } from './generated/catalog/v1/inventory';

/** Values that ticketing's gRPC messages carry as strings; ticketing enforces them, the gateway documents them. */
export const TICKET_STATUSES = ['valid', 'checked_in', 'refunded', 'revoked', 'canceled'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** The most seats one seat hold takes, and so one seat message names (a hold's, or its sale's). */
export const MAX_SEATS_PER_HOLD = 50;

/** What a seat hold is for (decision 0034): a sale, or comps (made without an admission, taken only by a comp). */
export const SEAT_HOLD_PURPOSES = ['sale', 'comp'] as const;
export type SeatHoldPurpose = (typeof SEAT_HOLD_PURPOSES)[number];

/** What a reservation of catalog's inventory is for, and its value in inventory.proto. */
export const RESERVATION_KIND_MESSAGES = {
  sale: ReservationKindMessage.RESERVATION_KIND_SALE,
  comp: ReservationKindMessage.RESERVATION_KIND_COMP,
} as const;
export type ReservationKind = keyof typeof RESERVATION_KIND_MESSAGES;
