import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { CatalogDiscount } from '../../domain/discount';
import { DiscountRepository } from '../../repositories/discount.repository';

export class ListDiscountsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, page: PageRequest | undefined): Promise<Page<CatalogDiscount>> {
    return paginate(page, new DiscountRepository(this.prisma).pages(tenant));
  }
}
