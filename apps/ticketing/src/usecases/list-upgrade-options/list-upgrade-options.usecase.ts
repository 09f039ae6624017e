import type { InternalClaims, Tenant } from '@ticketing/auth';
import { requiredIdParam } from '@ticketing/fields';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { upgradeOptions, type UpgradeOption } from '../../domain/upgrade';
import { TicketRepository } from '../../repositories/ticket.repository';
import { changeableTicket, currentTier } from '../change-ticket/changeable-ticket';

/**
 * Where a valid ticket can move now: its event's higher-rank tiers on sale, from catalog's live
 * counters; none while the event is not published (catalog would refuse the upgrade).
 */
export class ListUpgradeOptionsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, ticketId: string, page: PageRequest | undefined): Promise<Page<UpgradeOption>> {
    const id = requiredIdParam(ticketId, 'id');
    const ticket = await changeableTicket(new TicketRepository(this.prisma), tenant, id, 'upgraded');
    const [tiers, event] = await Promise.all([this.catalog.tiersOf(claims, ticket.event_id), this.catalog.eventFacts(claims, ticket.event_id)]);
    const options = event.status === 'published' ? upgradeOptions({ tier: currentTier(ticket, tiers), price: ticket.price }, tiers, new Date(event.startsAt), this.clock()) : [];
    // Options are newest first (tier id descending), as every id-ordered list: any tier of the
    // event marks a place among them, one listed on the previous page that stopped selling since included.
    return paginate(page, {
      exists: async (cursor) => tiers.some((tier) => tier.id === cursor),
      fetch: async (take, beforeId) => options.filter((option) => beforeId === undefined || option.tier_id < beforeId).slice(0, take),
    });
  }
}
