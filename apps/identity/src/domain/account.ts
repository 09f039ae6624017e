import { ApiError } from '@ticketing/errors';

/** An account as identity stores it; both of its modes share this one record. */
export interface Account {
  id: string;
  name: string;
  live_mode_activated: boolean;
  live_mode_activated_at: Date | null;
  created_at: Date;
}

export const ACCOUNT_NAME_MAX_LENGTH = 100;

export function validAccountName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > ACCOUNT_NAME_MAX_LENGTH) {
    throw new ApiError('parameter_invalid', `name must be 1 to ${ACCOUNT_NAME_MAX_LENGTH} characters.`, { param: 'name' });
  }
  return trimmed;
}
