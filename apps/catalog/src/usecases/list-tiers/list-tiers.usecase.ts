import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { CatalogTier } from '../../domain/tier';
import { EventRepository } from '../../repositories/event.repository';
import { TierRepository } from '../../repositories/tier.repository';

export class ListTiersUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, eventId: string, page: PageRequest | undefined): Promise<Page<CatalogTier>> {
    if (!(await new EventRepository(this.prisma).exists(tenant, eventId))) throw ApiError.resourceMissing('event', eventId);
    return paginate(page, new TierRepository(this.prisma).pages(tenant, eventId));
  }
}
