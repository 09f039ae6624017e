import type { catalogV1 } from '@ticketing/contracts';

/** Complete DiscountService requests (proto3: '' and absent mean "not given") with only what a test cares about set. */
export function createDiscountRequest(fields: Partial<catalogV1.CreateDiscountRequest> = {}): catalogV1.CreateDiscountRequest {
  return { code: '', percent_off: 10, currency: '', applies_to: undefined, valid_from: '', valid_until: '', ...fields };
}

export function quoteOrderRequest(eventId: string, items: catalogV1.QuoteOrderItem[], fields: Partial<catalogV1.QuoteOrderRequest> = {}): catalogV1.QuoteOrderRequest {
  return { event_id: eventId, items, discount_code: '', customer_id: '', customer_segment_ids: [], ...fields };
}

export const firstPage = (limit = 100): catalogV1.ListDiscountsRequest => ({ page: { limit, starting_after: '' } });

export function updateDiscountRequest(id: string, fields: Partial<catalogV1.UpdateDiscountRequest> = {}): catalogV1.UpdateDiscountRequest {
  return { id, applies_to: undefined, ...fields };
}
