import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { DeliveryFilters, LoggedDelivery } from '../../domain/delivery';
import { DeliveryRepository } from '../../repositories/delivery.repository';

export class ListDeliveriesUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, filters: DeliveryFilters, page: PageRequest | undefined): Promise<Page<LoggedDelivery>> {
    return paginate(page, new DeliveryRepository(this.prisma).pages(tenant, filters));
  }
}
