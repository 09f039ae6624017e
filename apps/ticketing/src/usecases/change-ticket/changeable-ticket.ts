import type { InternalClaims, Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { TicketingTicket } from '../../domain/ticket';
import { assertChangeable, isChangeable } from '../../domain/ticket-change';
import type { TierFacts } from '../../domain/upgrade';
import type { TicketRepository } from '../../repositories/ticket.repository';

/**
 * The tenant's ticket, if it can be `verb` now (decision 0032): 404 when the tenant has no such
 * ticket, 409 `ticket_not_valid` or `ticket_changed` when it cannot change.
 */
export async function changeableTicket(tickets: TicketRepository, tenant: Tenant, id: string, verb: string): Promise<TicketingTicket> {
  const ticket = await tickets.getById(tenant, id);
  assertChangeable(ticket, verb);
  return ticket;
}

/**
 * The tenant's ticket (404 when it has none), for a change that asserts the ticket can change
 * inside its own transaction (`assertChangeable`): under an Idempotency-Key that transaction
 * replays a change already committed, so a retry whose first reply was lost gets the change,
 * not 409 `ticket_not_valid` for the refund it made itself (a crash-testing probe).
 *
 * A ticket that can change now is also refused if catalog reports its event canceled (decision
 * 0032). Ticketing hears of a cancellation through catalog's messages, a moment after the client
 * that canceled was told; until then the event's tickets are still valid here, and a transfer or
 * a refund would succeed only for the cancellation to override it. Asked before the change's
 * transaction, so no transaction waits on catalog; the change's conditional update (still valid,
 * at this code version) refuses it if the ticket changed since. A cancellation committed after
 * the check is ordered after the change, and cancels the ticket as it left it. If catalog does
 * not answer within two seconds, the change goes on: the cancellation still reaches it.
 */
export async function ticketOfLiveEvent(
  tickets: TicketRepository,
  catalog: CatalogInventory,
  logger: Logger,
  { claims, tenant, id, verb }: { claims: InternalClaims; tenant: Tenant; id: string; verb: string },
): Promise<TicketingTicket> {
  const ticket = await tickets.getById(tenant, id);
  if (!isChangeable(ticket)) return ticket;
  const status = await catalog.eventStatus(claims, ticket.event_id).catch((error: unknown) => {
    logger.warn({ err: error, ticket_id: id }, 'event status not read from catalog; the change goes on');
  });
  if (status === 'canceled') {
    throw new ApiError('ticket_not_valid', `Ticket '${id}' cannot be ${verb}: its event '${ticket.event_id}' is canceled, and its valid tickets are being canceled.`);
  }
  return ticket;
}

/** The ticket's own tier among its event's tiers, which catalog always lists in full. */
export function currentTier(ticket: TicketingTicket, tiers: readonly TierFacts[]): TierFacts {
  const current = tiers.find((tier) => tier.id === ticket.tier_id);
  if (!current) throw new Error(`ticket ${ticket.id} is of tier ${ticket.tier_id}, which catalog does not list for event ${ticket.event_id}`);
  return current;
}
