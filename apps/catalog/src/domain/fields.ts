import { isCurrencyCode } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';

/** An ISO 4217 code in use, in any case; stored upper case. */
export function currencyCode(value: string, param = 'currency'): string {
  if (!isCurrencyCode(value)) throw new ApiError('parameter_invalid', `${param} must be an ISO 4217 currency code such as EUR.`, { param });
  return value.toUpperCase();
}
