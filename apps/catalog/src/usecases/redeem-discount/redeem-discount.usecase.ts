import type { Tenant } from '@ticketing/auth';
import { CATALOG_DISCOUNT_TOPIC } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { toRedemptionFacts } from '../../domain/discount-facts';
import { customerLimitRefusal, redemptionRefusal, type RedemptionResult } from '../../domain/discount-redemption';
import { optionalIdParam, requiredIdParam } from '@ticketing/fields';
import { DiscountRedemptionRepository } from '../../repositories/discount-redemption.repository';
import { DiscountRepository } from '../../repositories/discount.repository';
import { existingDiscount } from '../existing-discount';

export interface RedeemDiscountCommand {
  discount_id: string;
  order_id: string;
  /** Empty for a guest; required when the discount has a per-customer limit. */
  customer_id: string;
}

/**
 * Counts a paid order against a discount. In one transaction: claim the (discount, order) row,
 * add one to the discount's count only while under max_redemptions, then check the customer's
 * own count; any refusal rolls back all of it. The same order again returns the first result.
 */
export class RedeemDiscountUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(tenant: Tenant, command: RedeemDiscountCommand): Promise<RedemptionResult> {
    const discountId = requiredIdParam(command.discount_id, 'discount_id');
    const orderId = requiredIdParam(command.order_id, 'order_id');
    const customerId = optionalIdParam(command.customer_id, 'customer_id');
    const at = this.clock();
    const counted = await this.prisma.$transaction(async (tx) => {
      const redemptions = new DiscountRedemptionRepository(tx);
      if (!(await redemptions.claim(tenant, { discount_id: discountId, order_id: orderId, customer_id: customerId, at }))) return null;
      const count = await redemptions.countRedemption(tenant, discountId, at);
      if (!count) throw redemptionRefusal(await existingDiscount(new DiscountRepository(tx), tenant, discountId), at);
      const perCustomer = count.max_redemptions_per_customer;
      if (perCustomer !== null) {
        if (customerId === null) throw new ApiError('parameter_missing', 'customer_id is required: the discount is limited per customer.', { param: 'customer_id' });
        if ((await redemptions.countForCustomer(tenant, discountId, customerId)) > perCustomer) throw customerLimitRefusal(discountId, perCustomer);
      }
      const redemption = { discount_id: discountId, mode: tenant.mode, order_id: orderId, customer_id: customerId, redeemed_at: at, released_at: null };
      await enqueueEvent(tx, { topic: CATALOG_DISCOUNT_TOPIC, type: 'discount.redeemed', aggregateId: discountId, tenant, data: toRedemptionFacts(redemption, count.times_redeemed) });
      return { redemption, times_redeemed: count.times_redeemed };
    });
    return counted ?? this.earlierRedemption(tenant, discountId, orderId);
  }

  /** The claim found nothing to write: the discount is not the tenant's, or the order already counts. */
  private async earlierRedemption(tenant: Tenant, discountId: string, orderId: string): Promise<RedemptionResult> {
    const discount = await existingDiscount(new DiscountRepository(this.prisma), tenant, discountId);
    const redemption = await new DiscountRedemptionRepository(this.prisma).find(tenant, discountId, orderId);
    if (!redemption) throw new Error(`discount ${discountId} refused order ${orderId} as already redeemed, yet has no redemption for it`);
    return { redemption, times_redeemed: discount.times_redeemed };
  }
}
