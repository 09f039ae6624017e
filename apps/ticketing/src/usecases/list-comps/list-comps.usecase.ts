import type { Tenant } from '@ticketing/auth';
import { requiredIdParam } from '@ticketing/fields';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import { TicketRepository } from '../../repositories/ticket.repository';
import type { IssuedTickets } from '../drive-issuance/drive-issuance.usecase';

/** An event's guest list: its issued comps, newest first, each with its tickets. */
export class ListCompsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, eventId: string, request: PageRequest | undefined): Promise<Page<IssuedTickets>> {
    const page = await paginate(request, new IssuanceRepository(this.prisma).compPages(tenant, requiredIdParam(eventId, 'event_id')));
    const tickets = await new TicketRepository(this.prisma).ofIssuances(
      tenant,
      page.data.map((issuance) => issuance.id),
    );
    return { data: page.data.map((issuance) => ({ issuance, tickets: tickets.get(issuance.id)! })), has_more: page.has_more };
  }
}
