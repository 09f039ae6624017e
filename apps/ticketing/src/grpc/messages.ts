import type { ticketingV1 } from '@ticketing/contracts';
import type { TicketingCustomer } from '../domain/customer';
import type { Tenant } from '@ticketing/auth';
import type { TicketingSeatHold } from '../domain/seat-hold';
import type { QueueEntry, QueueState } from '../domain/waiting-room';
import type { AdmissionTokens } from '../waiting-room/admission-tokens';
import type { TicketingTicket } from '../domain/ticket';
import type { IssuedTickets } from '../usecases/drive-issuance/drive-issuance.usecase';

/** Ticketing's records as gRPC messages: proto3 has no null, so "not set" is ''. */
const iso = (date: Date) => date.toISOString();

export function toCustomerMessage(customer: TicketingCustomer): ticketingV1.Customer {
  return {
    id: customer.id,
    livemode: customer.mode === 'live',
    email: customer.email,
    name: customer.name ?? '',
    created_at: iso(customer.created_at),
    updated_at: iso(customer.updated_at),
  };
}

export function toTicketMessage(ticket: TicketingTicket): ticketingV1.Ticket {
  return {
    id: ticket.id,
    livemode: ticket.mode === 'live',
    event_id: ticket.event_id,
    tier_id: ticket.tier_id,
    customer_id: ticket.customer_id,
    status: ticket.status,
    price: ticket.price,
    currency: ticket.currency,
    issuance_id: ticket.issuance_id,
    code_version: ticket.code_version,
    code: ticket.code,
    seat: ticket.seat_id ?? '',
    created_at: iso(ticket.created_at),
    updated_at: iso(ticket.updated_at),
  };
}

export function toIssuedTicketsMessage({ issuance, tickets }: IssuedTickets): ticketingV1.IssuedTickets {
  return { issuance_id: issuance.id, tickets: tickets.map(toTicketMessage), metadata: issuance.metadata };
}

export function toCompMessage({ issuance, tickets }: IssuedTickets): ticketingV1.Comp {
  return {
    id: issuance.id,
    livemode: issuance.mode === 'live',
    event_id: issuance.event_id,
    tier_id: issuance.tier_id,
    customer_id: issuance.customer_id,
    quantity: issuance.quantity,
    reason: issuance.comp_reason ?? '',
    tickets: tickets.map(toTicketMessage),
    created_at: iso(issuance.created_at),
  };
}

export function toSeatHoldMessage(hold: TicketingSeatHold): ticketingV1.SeatHold {
  return {
    id: hold.id,
    livemode: hold.mode === 'live',
    event_id: hold.event_id,
    seats: hold.seats.map((seat) => ({ id: seat.id, tier_id: seat.tier_id })),
    status: hold.status,
    expires_at: iso(hold.expires_at),
    created_at: iso(hold.created_at),
    released_at: hold.released_at ? iso(hold.released_at) : '',
    purpose: hold.purpose,
  };
}

/** An entry, with its admission token once admitted (the same token every time it is read). */
export function toQueueEntryMessage(entry: QueueEntry, tenant: Tenant, tokens: AdmissionTokens): ticketingV1.QueueEntry {
  const admitted = entry.status === 'admitted' && entry.admission_expires_at;
  return {
    id: entry.id,
    livemode: tenant.mode === 'live',
    event_id: entry.event_id,
    status: entry.status,
    position: entry.position ?? 0,
    joined_at: iso(entry.joined_at),
    admitted_at: entry.admitted_at ? iso(entry.admitted_at) : '',
    admission_token: admitted ? tokens.sign({ entryId: entry.id, eventId: entry.event_id }, admitted) : '',
    admission_expires_at: admitted ? iso(admitted) : '',
  };
}

export function toQueueMessage({ state, entry }: { state: QueueState; entry: QueueEntry | null }, tenant: Tenant, tokens: AdmissionTokens): ticketingV1.Queue {
  return {
    event_id: state.event_id,
    livemode: tenant.mode === 'live',
    length: state.length,
    admitted: state.admitted,
    admission_rate_per_minute: state.admission_rate_per_minute,
    entry: entry ? toQueueEntryMessage(entry, tenant, tokens) : undefined,
  };
}
