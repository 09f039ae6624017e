import { ApiError } from '@ticketing/errors';
import { assertOrdered, integerInRange, optionalDateTime, requiredText } from '@ticketing/fields';
import { currencyCode } from './fields';

/** A tier as catalog stores it: a price level of an event and its inventory counters. */
export interface CatalogTier {
  id: string;
  mode: string;
  event_id: string;
  name: string;
  /** Minor units of `currency`, the event's currency. */
  price: number;
  currency: string;
  capacity: number;
  held: number;
  sold: number;
  sales_start_at: Date | null;
  sales_end_at: Date | null;
  min_per_order: number;
  max_per_order: number | null;
  seated: boolean;
  rank: number;
  created_at: Date;
  updated_at: Date;
}

/** The fields of a tier its owner sets. */
export type TierSettings = Pick<CatalogTier, 'name' | 'price' | 'capacity' | 'sales_start_at' | 'sales_end_at' | 'min_per_order' | 'max_per_order' | 'seated' | 'rank'>;

export const TIER_NAME_MAX_LENGTH = 100;
/** 10^12 minor units: far above any ticket price, far below where integers lose precision. */
export const MAX_PRICE = 1_000_000_000_000;
export const MAX_CAPACITY = 10_000_000;
export const MAX_RANK = 1000;

export const validTierName = (name: string) => requiredText(name, 'name', TIER_NAME_MAX_LENGTH);
export const validPrice = (price: number) => integerInRange(price, 'price', 0, MAX_PRICE);
export const validCapacity = (capacity: number) => integerInRange(capacity, 'capacity', 0, MAX_CAPACITY);
export const validRank = (rank: number) => integerInRange(rank, 'rank', 0, MAX_RANK);
export const validSalesStart = (value: string) => optionalDateTime(value, 'sales_start_at');
export const validSalesEnd = (value: string) => optionalDateTime(value, 'sales_end_at');
export const validMinPerOrder = (value: number) => integerInRange(value, 'min_per_order', 1, MAX_CAPACITY);
/** 0 means "no maximum". */
export const validMaxPerOrder = (value: number) => (value === 0 ? null : integerInRange(value, 'max_per_order', 1, MAX_CAPACITY));

/** Rules between fields, checked on the tier as it will be stored. */
export function assertConsistentTier(tier: Pick<TierSettings, 'sales_start_at' | 'sales_end_at' | 'min_per_order' | 'max_per_order'>): void {
  assertOrdered(tier.sales_start_at, tier.sales_end_at, 'sales_end_at', 'sales_start_at');
  if (tier.max_per_order !== null && tier.max_per_order < tier.min_per_order) {
    throw new ApiError('parameter_invalid', 'max_per_order must be at least min_per_order.', { param: 'max_per_order' });
  }
}

/**
 * A tier whose smallest order is larger than its capacity could never sell. Capacity 0 is left
 * alone: it is a placeholder, for a tier not released yet or a seated tier whose seat map will
 * give it its seats. `param` names the field the request changed.
 */
export function assertMinimumOrderFits(tier: Pick<TierSettings, 'capacity' | 'min_per_order'>, param: 'capacity' | 'min_per_order'): void {
  if (tier.capacity === 0 || tier.min_per_order <= tier.capacity) return;
  throw new ApiError(
    'parameter_invalid',
    `min_per_order (${tier.min_per_order}) is more than the tier's capacity (${tier.capacity}), so no order could ever be sold: lower min_per_order or raise capacity.`,
    { param },
  );
}

/**
 * Without its own end a tier sells until its event starts, so its sales must start before then:
 * otherwise its window is empty and it could never sell.
 */
export function assertSalesWindowBeforeStart(tier: Pick<TierSettings, 'sales_start_at' | 'sales_end_at'>, eventStartsAt: Date): void {
  if (tier.sales_end_at !== null || tier.sales_start_at === null || tier.sales_start_at < eventStartsAt) return;
  throw new ApiError(
    'parameter_invalid',
    `sales_start_at must be before the event starts at ${eventStartsAt.toISOString()}: without sales_end_at, a tier sells until its event starts. Give sales_end_at to sell after the start.`,
    { param: 'sales_start_at' },
  );
}

/** A tier is priced in its event's currency; a different one is a mistake worth refusing. */
export function assertEventCurrency(requested: string | undefined, eventCurrency: string): void {
  if (requested !== undefined && currencyCode(requested) !== eventCurrency) {
    throw new ApiError('parameter_invalid', `currency must be the event's currency, ${eventCurrency}.`, { param: 'currency' });
  }
}
