import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { CatalogEvent } from '../../domain/event';
import { EventRepository } from '../../repositories/event.repository';

export class ListEventsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, page: PageRequest | undefined): Promise<Page<CatalogEvent>> {
    return paginate(page, new EventRepository(this.prisma).pages(tenant));
  }
}
