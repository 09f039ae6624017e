import type { InternalClaims, Tenant } from '@ticketing/auth';
import { requiredIdParam } from '@ticketing/fields';
import { paginateOrdered, type Page, type PageRequest } from '@ticketing/pagination';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { upgradeOptions, type UpgradeOption } from '../../domain/upgrade';
import { TicketRepository } from '../../repositories/ticket.repository';
import { changeableTicket, currentTier } from '../change-ticket/changeable-ticket';

/** Where a valid ticket can move now: its event's higher-rank tiers on sale, from catalog's live counters. */
export class ListUpgradeOptionsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, ticketId: string, page: PageRequest | undefined): Promise<Page<UpgradeOption>> {
    const id = requiredIdParam(ticketId, 'id');
    const ticket = await changeableTicket(new TicketRepository(this.prisma), tenant, id, 'upgraded');
    const tiers = await this.catalog.tiersOf(claims, ticket.event_id);
    const options = upgradeOptions(currentTier(ticket, tiers), tiers, this.clock());
    // Options are newest first (tier id descending), so any tier of the event marks a place among
    // them: one listed on the previous page that has stopped selling since included.
    const cursor = page?.starting_after;
    if (cursor && tiers.some((tier) => tier.id === cursor)) {
      return paginateOrdered({ limit: page.limit }, options.filter((option) => option.tier_id < cursor), (option) => option.tier_id);
    }
    return paginateOrdered(page, options, (option) => option.tier_id);
  }
}
