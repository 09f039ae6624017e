import { ApiError } from '@ticketing/errors';
import { requiredText } from '@ticketing/fields';

/** An account as identity stores it; both of its modes share this one record. */
export interface Account {
  id: string;
  name: string;
  live_mode_activated: boolean;
  live_mode_activated_at: Date | null;
  created_at: Date;
  /** Requests per second the gateway allows the account in each mode; null means the gateway's default. */
  rate_limit_per_second: number | null;
}

export const ACCOUNT_NAME_MAX_LENGTH = 100;

export const validAccountName = (name: string): string => requiredText(name, 'name', ACCOUNT_NAME_MAX_LENGTH);

/** Far above any one account's real traffic; a larger number is almost surely a typo. */
export const RATE_LIMIT_PER_SECOND_MAX = 100_000;

/** An operator's per-account budget: a whole number of requests per second, or null for the gateway's default. */
export function validRateLimit(perSecond: number | null): number | null {
  if (perSecond === null) return null;
  if (!Number.isInteger(perSecond) || perSecond < 1 || perSecond > RATE_LIMIT_PER_SECOND_MAX) {
    throw new ApiError('parameter_invalid', `rate_limit_per_second must be a whole number from 1 to ${RATE_LIMIT_PER_SECOND_MAX}.`, {
      param: 'rate_limit_per_second',
    });
  }
  return perSecond;
}
