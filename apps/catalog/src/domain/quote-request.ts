import { ApiError } from '@ticketing/errors';
import { integerInRange } from '@ticketing/fields';

export interface QuoteItem {
  tier_id: string;
  quantity: number;
}

export const MAX_QUOTE_ITEMS = 50;
export const MAX_ITEM_QUANTITY = 1000;
export const MAX_SEGMENT_IDS = 100;
const ID_MAX_LENGTH = 255;

/** One line per tier: a repeated tier is a caller mistake rather than something to merge. */
export function validQuoteItems(items: readonly QuoteItem[]): QuoteItem[] {
  if (items.length === 0) throw new ApiError('parameter_missing', 'An order needs at least one item.', { param: 'items' });
  if (items.length > MAX_QUOTE_ITEMS) throw new ApiError('parameter_invalid', `An order has at most ${MAX_QUOTE_ITEMS} items.`, { param: 'items' });
  return items.map((item, index) => {
    const param = `items[${index}]`;
    if (item.tier_id === '' || item.tier_id.length > ID_MAX_LENGTH || items.findIndex((other) => other.tier_id === item.tier_id) !== index) {
      throw new ApiError('parameter_invalid', `${param}.tier_id must be a tier id listed once.`, { param: `${param}.tier_id` });
    }
    return { tier_id: item.tier_id, quantity: integerInRange(item.quantity, `${param}.quantity`, 1, MAX_ITEM_QUANTITY) };
  });
}

export function validSegmentIds(ids: readonly string[]): ReadonlySet<string> {
  if (ids.length > MAX_SEGMENT_IDS) {
    throw new ApiError('parameter_invalid', `customer_segment_ids takes at most ${MAX_SEGMENT_IDS} ids.`, { param: 'customer_segment_ids' });
  }
  return new Set(ids);
}
