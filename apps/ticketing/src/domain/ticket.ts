import { TICKET_STATUSES, type TicketStatus } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';

/** A ticket's states (decision 0030); transitions arrive with the ticket lifecycle operations. */
export { TICKET_STATUSES, type TicketStatus };

export interface TicketingTicket {
  id: string;
  mode: string;
  event_id: string;
  tier_id: string;
  customer_id: string;
  issuance_id: string;
  status: TicketStatus;
  /** What the holder paid for this ticket, in minor units of currency; 0 for a comp. */
  price: number;
  currency: string;
  /** Raised whenever the holder or tier changes; scanners refuse codes of older versions. */
  code_version: number;
  /** The signed, scannable code of this version (decision 0031). */
  code: string;
  /** "<section>:<row>:<seat>" for a ticket of a seated tier, else null. */
  seat_id: string | null;
  /** The catalog reservation its unit is sold under: its issuance, or its last upgrade. */
  reservation_id: string;
  /** The upgrade under way, if any: the ticket changes no other way until it ends. */
  pending_change_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export function ticketStatus(value: string, param = 'status'): TicketStatus {
  if (!(TICKET_STATUSES as readonly string[]).includes(value)) {
    throw new ApiError('parameter_invalid', `${param} must be one of ${TICKET_STATUSES.join(', ')}.`, { param });
  }
  return value as TicketStatus;
}

/**
 * Splits an order's total over its tickets so they add up to it exactly: each gets the total
 * divided by the quantity, and the first `total mod quantity` one minor unit more.
 */
export function ticketPrices(total: number, quantity: number): number[] {
  const base = Math.floor(total / quantity);
  const remainder = total - base * quantity;
  return Array.from({ length: quantity }, (_, index) => base + (index < remainder ? 1 : 0));
}
