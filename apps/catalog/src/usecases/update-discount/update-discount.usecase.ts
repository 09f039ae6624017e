import type { Tenant } from '@ticketing/auth';
import { CATALOG_DISCOUNT_TOPIC } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { valueOf, type CatalogDiscount } from '../../domain/discount';
import { toDiscountFacts } from '../../domain/discount-facts';
import { assertTargets } from '../../domain/discount-targets';
import { assertChangesFit, maxBelowRedeemed, validDiscountChanges, type DiscountUpdateInput } from '../../domain/discount-update';
import { DiscountTargetRepository } from '../../repositories/discount-target.repository';
import { DiscountRepository } from '../../repositories/discount.repository';
import { existingDiscount, withUniqueCode } from '../existing-discount';

export interface UpdateDiscountCommand extends DiscountUpdateInput {
  id: string;
}

/** Changes the fields given and records `discount.updated` in the same transaction. */
export class UpdateDiscountUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, { id, ...input }: UpdateDiscountCommand): Promise<CatalogDiscount> {
    const changes = validDiscountChanges(input);
    return withUniqueCode(changes.code, () =>
      this.prisma.$transaction(async (tx) => {
        const discounts = new DiscountRepository(tx);
        const current = await existingDiscount(discounts, tenant, id);
        assertChangesFit(current, changes);
        if (changes.event_ids !== undefined && changes.tier_ids !== undefined) {
          const appliesTo = { event_ids: changes.event_ids, tier_ids: changes.tier_ids };
          assertTargets(appliesTo, valueOf(current), await new DiscountTargetRepository(tx).find(tenant, appliesTo));
        }
        // Refused only when a redemption committed since the read above took the count past the new limit.
        if (!(await discounts.update(tenant, id, changes))) throw maxBelowRedeemed((await existingDiscount(discounts, tenant, id)).times_redeemed);
        const discount = await existingDiscount(discounts, tenant, id);
        await enqueueEvent(tx, { topic: CATALOG_DISCOUNT_TOPIC, type: 'discount.updated', aggregateId: id, tenant, data: toDiscountFacts(discount) });
        return discount;
      }),
    );
  }
}
