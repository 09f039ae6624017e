import type { Tenant } from '@ticketing/auth';
import { optionalIdParam } from '@ticketing/fields';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import { ticketStatus, type TicketingTicket } from '../../domain/ticket';
import { TicketRepository, type TicketFilters } from '../../repositories/ticket.repository';

/** Filters as gRPC carries them: '' means "any". */
export interface ListTicketsQuery {
  event_id: string;
  customer_id: string;
  tier_id: string;
  status: string;
}

function validFilters(query: ListTicketsQuery): TicketFilters {
  const filters: TicketFilters = {};
  const eventId = optionalIdParam(query.event_id, 'event_id');
  const customerId = optionalIdParam(query.customer_id, 'customer');
  const tierId = optionalIdParam(query.tier_id, 'tier_id');
  if (eventId) filters.event_id = eventId;
  if (customerId) filters.customer_id = customerId;
  if (tierId) filters.tier_id = tierId;
  if (query.status) filters.status = ticketStatus(query.status);
  return filters;
}

/** The tenant's tickets, newest first, narrowed by any of event, customer, tier and status. */
export class ListTicketsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, query: ListTicketsQuery, page: PageRequest | undefined): Promise<Page<TicketingTicket>> {
    return paginate(page, new TicketRepository(this.prisma).pages(tenant, validFilters(query)));
  }
}
