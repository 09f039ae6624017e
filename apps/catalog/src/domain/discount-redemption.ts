import { ApiError } from '@ticketing/errors';
import type { CatalogDiscount } from './discount';
import { unavailability, type Unavailability } from './discount-eligibility';

/** A paid order counted against a discount; it stops counting once released. */
export interface CatalogDiscountRedemption {
  discount_id: string;
  mode: string;
  order_id: string;
  customer_id: string | null;
  redeemed_at: Date;
  released_at: Date | null;
}

export interface RedemptionResult {
  redemption: CatalogDiscountRedemption;
  /** The discount's count after the call. */
  times_redeemed: number;
}

/** Why a redemption the conditional update refused was refused, read from the discount as it now is. */
export function redemptionRefusal(discount: Pick<CatalogDiscount, 'id' | 'active' | 'valid_from' | 'valid_until' | 'max_redemptions' | 'times_redeemed'>, at: Date): ApiError {
  const unavailable: Unavailability = unavailability(discount, at) ?? { code: 'redemption_limit_reached', reason: 'it has been redeemed the maximum number of times' };
  return new ApiError(unavailable.code, `Discount ${discount.id} cannot be redeemed: ${unavailable.reason}.`);
}

export function customerLimitRefusal(discountId: string, limit: number): ApiError {
  return new ApiError('customer_redemption_limit_reached', `The customer has already redeemed discount ${discountId} ${limit} time(s), its per-customer limit.`, {
    param: 'customer_id',
  });
}
