import { ApiError } from '@ticketing/errors';

/**
 * How long a text is, in characters (Unicode code points), as JSON Schema's `maxLength` and
 * PostgreSQL count: an emoji is one, although JavaScript's `length` (UTF-16 units) says two.
 */
export const characterCount = (text: string) => [...text].length;

/**
 * Checks of the fields a service receives over gRPC. Callers other than the gateway exist, so
 * each service validates what it stores even though the gateway's schemas already refuse most
 * bad input; every failure is a parameter_invalid ApiError naming the field.
 * proto3 has no null for strings: an empty string means "not given".
 */
export function requiredText(value: string, param: string, maxLength: number): string {
  const trimmed = value.trim();
  const length = characterCount(trimmed);
  if (length === 0 || length > maxLength) {
    throw new ApiError('parameter_invalid', `${param} must be 1 to ${maxLength} characters.`, { param });
  }
  return trimmed;
}

/** Text that may be left out: null when empty. */
export function optionalText(value: string, param: string, maxLength: number): string | null {
  return value.trim() === '' ? null : requiredText(value, param, maxLength);
}

/** A date-time with its offset, as ISO 8601 writes it: 2027-06-01T19:30:00Z, 2027-06-01T21:30:00.000+02:00. */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether every service can store the instant: years 0001 to 9999 in UTC (PostgreSQL has no year 0). */
export function isStorableInstant(milliseconds: number): boolean {
  return milliseconds >= EARLIEST_INSTANT && milliseconds <= LATEST_INSTANT;
}

/** `new Date` alone is lenient ('1', 'June 1', 30 February): only a real ISO 8601 instant passes. */
export function dateTime(value: string, param: string): Date {
  const match = ISO_DATE_TIME.exec(value);
  const parsed = new Date(value);
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) || Number.isNaN(parsed.getTime())) {
    throw new ApiError('parameter_invalid', `${param} must be an ISO 8601 date-time, e.g. 2027-06-01T19:30:00Z.`, { param });
  }
  if (!isStorableInstant(parsed.getTime())) throw new ApiError('parameter_invalid', `${param} must be a date-time from year 0001 to 9999 in UTC.`, { param });
  return parsed;
}

export function optionalDateTime(value: string, param: string): Date | null {
  return value === '' ? null : dateTime(value, param);
}

export function integerInRange(value: number, param: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ApiError('parameter_invalid', `${param} must be a whole number from ${min} to ${max}.`, { param });
  }
  return value;
}

/** `end` must come after `start` when both are set; the error names `endParam`. */
export function assertOrdered(start: Date | null, end: Date | null, endParam: string, startParam: string): void {
  if (start && end && end.getTime() <= start.getTime()) {
    throw new ApiError('parameter_invalid', `${endParam} must be after ${startParam}.`, { param: endParam });
  }
}
