/** Values that catalog's gRPC messages carry as strings; catalog enforces them, the gateway documents them. */
export const EVENT_STATUSES = ['draft', 'published', 'canceled', 'completed'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const SEAT_STATUSES = ['available', 'held', 'sold'] as const;
export type SeatStatus = (typeof SEAT_STATUSES)[number];

/** ISO 4217 codes in use, as the runtime's ICU data lists them; money is priced only in these. */
const CURRENCY_CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** Whether `code` is an ISO 4217 currency code in use, in any letter case (`eur` is EUR). */
export function isCurrencyCode(code: string): boolean {
  return CURRENCY_CODES.has(code.toUpperCase());
}
