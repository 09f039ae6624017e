import { ApiError } from '@ticketing/errors';
import { assertOrdered, integerInRange, optionalDateTime } from '@ticketing/fields';
import { currencyCode } from './fields';

/** A discount as catalog stores it. Exactly one of percent_off and amount_off is set. */
export interface CatalogDiscount {
  id: string;
  mode: string;
  /** Upper case; null for an automatic discount, which only its triggers apply. */
  code: string | null;
  percent_off: number | null;
  /** Minor units of `currency`. */
  amount_off: number | null;
  currency: string | null;
  /** Both empty: the discount applies to every event and tier. */
  event_ids: string[];
  tier_ids: string[];
  valid_from: Date | null;
  valid_until: Date | null;
  max_redemptions: number | null;
  max_redemptions_per_customer: number | null;
  times_redeemed: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export type DiscountValue = { percent_off: number; amount_off: null; currency: null } | { percent_off: null; amount_off: number; currency: string };

export interface DiscountAppliesTo {
  event_ids: string[];
  tier_ids: string[];
}

/** 10^12 minor units, as for tier prices: far below where integers lose precision. */
export const MAX_AMOUNT_OFF = 1_000_000_000_000;
export const MAX_REDEMPTIONS = 1_000_000_000;
export const MAX_APPLIES_TO_IDS = 100;
const CODE = /^[A-Z0-9_-]{3,64}$/;
const ID_MAX_LENGTH = 255;

/** Codes are matched case-insensitively, so they are stored upper case. Empty means none. */
export function validDiscountCode(code: string): string | null {
  if (code === '') return null;
  const normalized = code.trim().toUpperCase();
  if (!CODE.test(normalized)) {
    throw new ApiError('parameter_invalid', 'code must be 3 to 64 letters, digits, hyphens or underscores.', { param: 'code' });
  }
  return normalized;
}

/** The customer's spelling of a code, in the form codes are stored in. */
export function normalizedCode(code: string): string | null {
  const normalized = code.trim().toUpperCase();
  return normalized === '' ? null : normalized;
}

export function validDiscountValue(input: { percent_off?: number; amount_off?: number; currency: string }): DiscountValue {
  if (input.percent_off === undefined && input.amount_off === undefined) {
    throw new ApiError('parameter_missing', 'Give percent_off or amount_off.', { param: 'percent_off' });
  }
  if (input.percent_off !== undefined && input.amount_off !== undefined) {
    throw new ApiError('parameter_invalid', 'Give percent_off or amount_off, not both.', { param: 'amount_off' });
  }
  if (input.percent_off !== undefined) {
    if (input.currency !== '') {
      throw new ApiError('parameter_invalid', 'currency goes only with amount_off; a percent discount applies in any currency.', { param: 'currency' });
    }
    return { percent_off: integerInRange(input.percent_off, 'percent_off', 1, 100), amount_off: null, currency: null };
  }
  const amountOff = integerInRange(input.amount_off!, 'amount_off', 1, MAX_AMOUNT_OFF);
  if (input.currency === '') {
    throw new ApiError('parameter_missing', 'currency is required with amount_off.', { param: 'currency' });
  }
  return { percent_off: null, amount_off: amountOff, currency: currencyCode(input.currency) };
}

function validIdList(ids: readonly string[], param: string): string[] {
  if (ids.length > MAX_APPLIES_TO_IDS) {
    throw new ApiError('parameter_invalid', `${param} takes at most ${MAX_APPLIES_TO_IDS} ids.`, { param });
  }
  ids.forEach((id, index) => {
    if (id === '' || id.length > ID_MAX_LENGTH) throw new ApiError('parameter_invalid', `${param}[${index}] must be an id.`, { param: `${param}[${index}]` });
    if (ids.indexOf(id) !== index) throw new ApiError('parameter_invalid', `${param}[${index}] appears more than once.`, { param: `${param}[${index}]` });
  });
  return [...ids];
}

export function validAppliesTo(appliesTo: DiscountAppliesTo | undefined): DiscountAppliesTo {
  return {
    event_ids: validIdList(appliesTo?.event_ids ?? [], 'applies_to.event_ids'),
    tier_ids: validIdList(appliesTo?.tier_ids ?? [], 'applies_to.tier_ids'),
  };
}

/** The value of a stored discount; the table's CHECK constraints allow only these two shapes. */
export function valueOf(discount: Pick<CatalogDiscount, 'percent_off' | 'amount_off' | 'currency'>): DiscountValue {
  if (discount.percent_off !== null) return { percent_off: discount.percent_off, amount_off: null, currency: null };
  if (discount.amount_off !== null && discount.currency !== null) return { percent_off: null, amount_off: discount.amount_off, currency: discount.currency };
  throw new Error('discount has neither a percentage nor an amount with a currency');
}

/** Absent or 0: unlimited. */
export function validRedemptionLimit(value: number | undefined, param: 'max_redemptions' | 'max_redemptions_per_customer'): number | null {
  return value === undefined || value === 0 ? null : integerInRange(value, param, 1, MAX_REDEMPTIONS);
}

export const validValidFrom = (value: string) => optionalDateTime(value, 'valid_from');
export const validValidUntil = (value: string) => optionalDateTime(value, 'valid_until');

/** Rules between fields, checked on the discount as it will be stored. */
export function assertValidityWindow(window: Pick<CatalogDiscount, 'valid_from' | 'valid_until'>): void {
  assertOrdered(window.valid_from, window.valid_until, 'valid_until', 'valid_from');
}
