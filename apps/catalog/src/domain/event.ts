import { isCountryCode } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import type { EventStatus } from './event-status';
import { assertOrdered, dateTime, integerInRange, optionalDateTime, optionalText, requiredText } from '@ticketing/fields';
import { currencyCode } from './fields';
import type { CatalogTier } from './tier';

export interface Venue {
  name: string;
  address: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  /** IANA time zone. */
  timezone: string | null;
}

/** The venue and waiting room as callers send them (proto3: empty string or 0 = not given). */
export interface VenueInput {
  name: string;
  address: string;
  city: string;
  country: string;
  timezone: string;
}

export interface WaitingRoomInput {
  enabled: boolean;
  admission_rate_per_minute: number;
}

export interface WaitingRoomSettings {
  enabled: boolean;
  /** Buyers admitted per minute; required while the room is enabled. */
  admission_rate_per_minute: number | null;
}

/** The details of an event that its owner sets. */
export interface EventDetails {
  name: string;
  description: string | null;
  organization_id: string | null;
  venue: Venue | null;
  starts_at: Date;
  ends_at: Date | null;
  category: string | null;
  tags: string[];
  currency: string;
  waiting_room: WaitingRoomSettings;
}

/** An event as catalog stores it, with its tiers. */
export interface CatalogEvent extends EventDetails {
  id: string;
  mode: string;
  status: EventStatus;
  tiers: CatalogTier[];
  has_seatmap: boolean;
  created_at: Date;
  updated_at: Date;
}

export const EVENT_NAME_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 5000;
export const MAX_TAGS = 20;
export const TAG_MAX_LENGTH = 50;
export const MAX_ADMISSION_RATE_PER_MINUTE = 1_000_000;
export const DEFAULT_CURRENCY = 'USD';

export function validEventName(name: string): string {
  return requiredText(name, 'name', EVENT_NAME_MAX_LENGTH);
}

export function validStartsAt(startsAt: string): Date {
  return dateTime(startsAt, 'starts_at');
}

export function validDescription(description: string): string | null {
  return optionalText(description, 'description', DESCRIPTION_MAX_LENGTH);
}

export function validEndsAt(endsAt: string): Date | null {
  return optionalDateTime(endsAt, 'ends_at');
}

/** Categories and tags compare case-insensitively (similar events), so they are stored lower case. */
export function validCategory(category: string): string | null {
  return optionalText(category, 'category', TAG_MAX_LENGTH)?.toLowerCase() ?? null;
}

export function validTags(tags: readonly string[]): string[] {
  if (tags.length > MAX_TAGS) throw new ApiError('parameter_invalid', `tags holds at most ${MAX_TAGS} tags.`, { param: 'tags' });
  return [...new Set(tags.map((tag) => requiredText(tag, 'tags', TAG_MAX_LENGTH).toLowerCase()))];
}

export function validCurrency(currency: string): string {
  return currency === '' ? DEFAULT_CURRENCY : currencyCode(currency);
}

/**
 * The IANA name as given, with its usual capitals when only the case was off ('europe/amsterdam'
 * → 'Europe/Amsterdam'), or null if unknown. ICU resolves some current names to older aliases
 * (Asia/Kolkata → Asia/Calcutta), so the resolved name replaces the given one only on case.
 */
function canonicalTimeZone(name: string): string | null {
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
  } catch {
    return null;
  }
}

/** The venue as given; a venue without a name means "no venue". */
export function validVenue(venue: VenueInput | undefined): Venue | null {
  if (!venue || venue.name.trim() === '') return null;
  if (venue.country !== '' && !isCountryCode(venue.country)) {
    throw new ApiError('parameter_invalid', 'venue.country must be an ISO 3166-1 alpha-2 country code such as NL.', { param: 'venue.country' });
  }
  const timezone = venue.timezone === '' ? null : canonicalTimeZone(venue.timezone);
  if (venue.timezone !== '' && timezone === null) {
    throw new ApiError('parameter_invalid', 'venue.timezone must be an IANA time zone such as Europe/Amsterdam.', { param: 'venue.timezone' });
  }
  return {
    name: requiredText(venue.name, 'venue.name', 200),
    address: optionalText(venue.address, 'venue.address', 500),
    city: optionalText(venue.city, 'venue.city', 100),
    country: venue.country === '' ? null : venue.country.toUpperCase(),
    timezone,
  };
}

/** A new event's waiting room: none unless given, and an enabled one needs its rate. */
export function validWaitingRoom(room: WaitingRoomInput | undefined): WaitingRoomSettings {
  if (!room) return { enabled: false, admission_rate_per_minute: null };
  return changedWaitingRoom(validWaitingRoomChange(room), null);
}

/** A change of an event's waiting room; a rate left out (0 on the wire, null here) keeps the event's current rate. */
export function validWaitingRoomChange(room: WaitingRoomInput): WaitingRoomSettings {
  const rate = room.admission_rate_per_minute === 0 ? null : integerInRange(room.admission_rate_per_minute, 'waiting_room.admission_rate_per_minute', 1, MAX_ADMISSION_RATE_PER_MINUTE);
  return { enabled: room.enabled, admission_rate_per_minute: rate };
}

/** The room after `change`: a room paused and resumed keeps its rate; an enabled one needs one. */
export function changedWaitingRoom(change: WaitingRoomSettings, currentRate: number | null): WaitingRoomSettings {
  return { enabled: change.enabled, admission_rate_per_minute: requiredRateIfEnabled(change.enabled, change.admission_rate_per_minute ?? currentRate) };
}

function requiredRateIfEnabled(enabled: boolean, rate: number | null): number | null {
  if (enabled && rate === null) {
    throw new ApiError('parameter_missing', 'An enabled waiting room needs waiting_room.admission_rate_per_minute.', { param: 'waiting_room.admission_rate_per_minute' });
  }
  return rate;
}

export function assertEndsAfterStart(details: Pick<EventDetails, 'starts_at' | 'ends_at'>): void {
  assertOrdered(details.starts_at, details.ends_at, 'ends_at', 'starts_at');
}
