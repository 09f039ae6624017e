import { EMAIL_ADDRESS_MAX_LENGTH, isEmailAddress } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { optionalText, requiredText } from '@ticketing/fields';

/** An organizer an account sells tickets for. */
export interface CatalogOrganization {
  id: string;
  mode: string;
  name: string;
  description: string | null;
  website: string | null;
  contact_email: string | null;
  created_at: Date;
  updated_at: Date;
}

export const validOrganizationName = (name: string) => requiredText(name, 'name', 200);
export const validOrganizationDescription = (description: string) => optionalText(description, 'description', 5000);

export function validWebsite(website: string): string | null {
  const value = optionalText(website, 'website', 2000);
  if (value === null) return null;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ApiError('parameter_invalid', 'website must be an http(s) URL such as https://example.com.', { param: 'website' });
  }
  return value;
}

export function validContactEmail(email: string): string | null {
  const value = optionalText(email, 'contact_email', EMAIL_ADDRESS_MAX_LENGTH);
  if (value !== null && !isEmailAddress(value)) {
    throw new ApiError('parameter_invalid', 'contact_email must be an email address.', { param: 'contact_email' });
  }
  return value;
}
