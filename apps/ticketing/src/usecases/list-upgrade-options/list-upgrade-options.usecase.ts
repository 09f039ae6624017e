import type { InternalClaims, Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import { paginateOrdered, type Page, type PageRequest } from '@ticketing/pagination';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { assertChangeable } from '../../domain/ticket-change';
import { upgradeOptions, type UpgradeOption } from '../../domain/upgrade';
import { TicketRepository } from '../../repositories/ticket.repository';

/** Where a valid ticket can move: its event's higher-rank tiers, from catalog's live counters. */
export class ListUpgradeOptionsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, ticketId: string, page: PageRequest | undefined): Promise<Page<UpgradeOption>> {
    const id = requiredIdParam(ticketId, 'id');
    const ticket = await new TicketRepository(this.prisma).findById(tenant, id);
    if (!ticket) throw ApiError.resourceMissing('ticket', id);
    assertChangeable(ticket, 'upgraded');
    const tiers = await this.catalog.tiersOf(claims, ticket.event_id);
    const current = tiers.find((tier) => tier.id === ticket.tier_id);
    if (!current) throw new Error(`ticket ${id} is of tier ${ticket.tier_id}, which catalog does not list for event ${ticket.event_id}`);
    return paginateOrdered(page, upgradeOptions(current, tiers), (option) => option.tier_id);
  }
}
