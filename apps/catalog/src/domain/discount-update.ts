import { ApiError } from '@ticketing/errors';
import {
  assertValidityWindow,
  validAppliesTo,
  validDiscountCode,
  validRedemptionLimit,
  validValidFrom,
  validValidUntil,
  type CatalogDiscount,
  type DiscountAppliesTo,
} from './discount';

/** A partial update as sent: absent fields stay as they are; empty text and a 0 limit clear. */
export interface DiscountUpdateInput {
  code?: string;
  applies_to?: DiscountAppliesTo;
  valid_from?: string;
  valid_until?: string;
  max_redemptions?: number;
  max_redemptions_per_customer?: number;
  active?: boolean;
}

export type DiscountChanges = Partial<
  Pick<CatalogDiscount, 'code' | 'event_ids' | 'tier_ids' | 'valid_from' | 'valid_until' | 'max_redemptions' | 'max_redemptions_per_customer' | 'active'>
>;

const UPDATABLE = 'code, applies_to, valid_from, valid_until, max_redemptions, max_redemptions_per_customer, active';

export function validDiscountChanges(input: DiscountUpdateInput): DiscountChanges {
  const changes: DiscountChanges = {
    ...(input.code === undefined ? {} : { code: validDiscountCode(input.code) }),
    ...(input.applies_to === undefined ? {} : validAppliesTo(input.applies_to)),
    ...(input.valid_from === undefined ? {} : { valid_from: validValidFrom(input.valid_from) }),
    ...(input.valid_until === undefined ? {} : { valid_until: validValidUntil(input.valid_until) }),
    ...(input.max_redemptions === undefined ? {} : { max_redemptions: validRedemptionLimit(input.max_redemptions, 'max_redemptions') }),
    ...(input.max_redemptions_per_customer === undefined
      ? {}
      : { max_redemptions_per_customer: validRedemptionLimit(input.max_redemptions_per_customer, 'max_redemptions_per_customer') }),
    ...(input.active === undefined ? {} : { active: input.active }),
  };
  if (Object.keys(changes).length === 0) throw new ApiError('parameter_missing', `Give at least one of ${UPDATABLE} to change.`);
  return changes;
}

/**
 * Rules between the changes and the discount as stored. The limit check here only gives a clear
 * message: the conditional update in the repository is what holds under concurrent redemptions.
 */
export function assertChangesFit(current: CatalogDiscount, changes: DiscountChanges): void {
  assertValidityWindow({ ...current, ...changes });
  if (changes.max_redemptions != null && changes.max_redemptions < current.times_redeemed) {
    throw maxBelowRedeemed(current.times_redeemed);
  }
}

export function maxBelowRedeemed(timesRedeemed: number): ApiError {
  return new ApiError('redemption_limit_below_redeemed', `max_redemptions cannot be below times_redeemed (${timesRedeemed}).`, { param: 'max_redemptions' });
}
