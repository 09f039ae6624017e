import type { Tenant } from '@ticketing/auth';
import { CATALOG_DISCOUNT_TOPIC } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import type { CatalogDiscount } from '../../domain/discount';
import { toDiscountFacts } from '../../domain/discount-facts';
import { DiscountRepository } from '../../repositories/discount.repository';
import { existingDiscount } from '../existing-discount';

/**
 * Stops a discount from applying to any new quote or redemption; redemptions already counted
 * stay. Deactivating an inactive discount changes nothing and publishes nothing.
 */
export class DeactivateDiscountUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, id: string): Promise<CatalogDiscount> {
    return this.prisma.$transaction(async (tx) => {
      const discounts = new DiscountRepository(tx);
      const changed = await discounts.deactivate(tenant, id);
      const discount = await existingDiscount(discounts, tenant, id);
      if (changed) {
        await enqueueEvent(tx, { topic: CATALOG_DISCOUNT_TOPIC, type: 'discount.deactivated', aggregateId: id, tenant, data: toDiscountFacts(discount) });
      }
      return discount;
    });
  }
}
