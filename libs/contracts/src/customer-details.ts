import { ApiError } from '@ticketing/errors';
import { optionalText } from '@ticketing/fields';
import { EMAIL_ADDRESS_MAX_LENGTH, isEmailAddress } from './email-address';

/** A buyer as a request names them: an email, and a name if given. */
export interface CustomerDetails {
  /** Lower case: Ann@Example.com and ann@example.com are one customer. */
  email: string;
  name: string | null;
}

export const CUSTOMER_NAME_MAX_LENGTH = 200;

/** The buyer's details checked as every service that takes them checks them (ticketing's issuances, payments' orders). */
export function validCustomerDetails(email: string, name: string, paramPrefix = ''): CustomerDetails {
  const normalized = email.trim().toLowerCase();
  if (!isEmailAddress(normalized)) {
    throw new ApiError('parameter_invalid', `${paramPrefix}email must be an email address of at most ${EMAIL_ADDRESS_MAX_LENGTH} characters.`, { param: `${paramPrefix}email` });
  }
  return { email: normalized, name: optionalText(name, `${paramPrefix}name`, CUSTOMER_NAME_MAX_LENGTH) };
}
