import type { Tenant } from '@ticketing/auth';
import { CATALOG_DISCOUNT_TOPIC } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { toRedemptionFacts } from '../../domain/discount-facts';
import type { RedemptionResult } from '../../domain/discount-redemption';
import { requiredIdParam } from '@ticketing/fields';
import { DiscountRedemptionRepository } from '../../repositories/discount-redemption.repository';
import { DiscountRepository } from '../../repositories/discount.repository';
import { existingDiscount } from '../existing-discount';

export interface ReleaseDiscountRedemptionCommand {
  discount_id: string;
  order_id: string;
}

/**
 * Gives a refunded (or unpaid) order's redemption back: it stops counting towards both limits.
 * Releasing an already released redemption returns it unchanged.
 */
export class ReleaseDiscountRedemptionUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  execute(tenant: Tenant, command: ReleaseDiscountRedemptionCommand): Promise<RedemptionResult> {
    const discountId = requiredIdParam(command.discount_id, 'discount_id');
    const orderId = requiredIdParam(command.order_id, 'order_id');
    const at = this.clock();
    return this.prisma.$transaction(async (tx) => {
      const redemptions = new DiscountRedemptionRepository(tx);
      const released = await redemptions.release(tenant, discountId, orderId, at);
      const redemption = await redemptions.find(tenant, discountId, orderId);
      if (!redemption) throw ApiError.resourceMissing(`redemption of discount ${discountId} for order`, orderId, 'order_id');
      if (!released) return { redemption, times_redeemed: (await existingDiscount(new DiscountRepository(tx), tenant, discountId)).times_redeemed };
      const timesRedeemed = await redemptions.uncountRedemption(tenant, discountId);
      await enqueueEvent(tx, { topic: CATALOG_DISCOUNT_TOPIC, type: 'discount.redemption_released', aggregateId: discountId, tenant, data: toRedemptionFacts(redemption, timesRedeemed) });
      return { redemption, times_redeemed: timesRedeemed };
    });
  }
}
