import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { TicketingTicket } from '../../domain/ticket';
import { assertChangeable } from '../../domain/ticket-change';
import type { TierFacts } from '../../domain/upgrade';
import type { TicketRepository } from '../../repositories/ticket.repository';

/**
 * The tenant's ticket, if it can be `verb` now (decision 0032): 404 when the tenant has no such
 * ticket, 409 `ticket_not_valid` or `ticket_changed` when it cannot change.
 */
export async function changeableTicket(tickets: TicketRepository, tenant: Tenant, id: string, verb: string): Promise<TicketingTicket> {
  const ticket = await tickets.findById(tenant, id);
  if (!ticket) throw ApiError.resourceMissing('ticket', id);
  assertChangeable(ticket, verb);
  return ticket;
}

/** The ticket's own tier among its event's tiers, which catalog always lists in full. */
export function currentTier(ticket: TicketingTicket, tiers: readonly TierFacts[]): TierFacts {
  const current = tiers.find((tier) => tier.id === ticket.tier_id);
  if (!current) throw new Error(`ticket ${ticket.id} is of tier ${ticket.tier_id}, which catalog does not list for event ${ticket.event_id}`);
  return current;
}
