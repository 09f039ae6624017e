import { ApiError } from '@ticketing/errors';

/** An event as catalog stores it. */
export interface CatalogEvent {
  id: string;
  mode: string;
  name: string;
  starts_at: Date;
  created_at: Date;
  updated_at: Date;
}

export const EVENT_NAME_MAX_LENGTH = 200;

export function validEventName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > EVENT_NAME_MAX_LENGTH) {
    throw new ApiError('parameter_invalid', `name must be 1 to ${EVENT_NAME_MAX_LENGTH} characters.`, { param: 'name' });
  }
  return trimmed;
}

export function validStartsAt(startsAt: string): Date {
  const parsed = new Date(startsAt);
  if (startsAt === '' || Number.isNaN(parsed.getTime())) {
    throw new ApiError('parameter_invalid', 'starts_at must be an ISO 8601 date-time, e.g. 2027-06-01T19:30:00Z.', { param: 'starts_at' });
  }
  return parsed;
}
