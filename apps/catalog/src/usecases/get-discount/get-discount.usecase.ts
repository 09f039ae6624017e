import type { Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import type { CatalogDiscount } from '../../domain/discount';
import { DiscountRepository } from '../../repositories/discount.repository';
import { existingDiscount } from '../existing-discount';

export class GetDiscountUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, id: string): Promise<CatalogDiscount> {
    return existingDiscount(new DiscountRepository(this.prisma), tenant, id);
  }
}
