import type { InternalClaims, Tenant } from '@ticketing/auth';
import { requiredIdParam } from '@ticketing/fields';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { EventSettingsRepository } from '../../repositories/event-settings.repository';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import { TicketRepository } from '../../repositories/ticket.repository';
import type { IssuedTickets } from '../drive-issuance/drive-issuance.usecase';

/**
 * An event's guest list: its issued comps, newest first, each with its tickets. The list of an
 * event the tenant does not have is refused (resource_missing), not answered empty: an empty page
 * is checked against ticketing's copy of the tenant's events and, when the copy has not heard of
 * the event yet, against catalog.
 */
export class ListCompsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: Pick<CatalogInventory, 'eventFacts'>,
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, eventId: string, request: PageRequest | undefined): Promise<Page<IssuedTickets>> {
    const id = requiredIdParam(eventId, 'event_id');
    const page = await paginate(request, new IssuanceRepository(this.prisma).compPages(tenant, id));
    if (page.data.length === 0 && !(await new EventSettingsRepository(this.prisma).find(tenant, id))) await this.catalog.eventFacts(claims, id);
    const tickets = await new TicketRepository(this.prisma).ofIssuances(
      tenant,
      page.data.map((issuance) => issuance.id),
    );
    return { data: page.data.map((issuance) => ({ issuance, tickets: tickets.get(issuance.id)! })), has_more: page.has_more };
  }
}
