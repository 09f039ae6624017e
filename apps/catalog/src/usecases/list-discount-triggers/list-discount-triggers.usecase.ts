import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { CatalogDiscountTrigger } from '../../domain/discount-trigger';
import { DiscountTriggerRepository } from '../../repositories/discount-trigger.repository';
import { DiscountRepository } from '../../repositories/discount.repository';
import { existingDiscount } from '../existing-discount';

export class ListDiscountTriggersUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, discountId: string, page: PageRequest | undefined): Promise<Page<CatalogDiscountTrigger>> {
    await existingDiscount(new DiscountRepository(this.prisma), tenant, discountId);
    return paginate(page, new DiscountTriggerRepository(this.prisma).pages(tenant, discountId));
  }
}
