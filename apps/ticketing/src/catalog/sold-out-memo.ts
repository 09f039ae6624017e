import { ApiError } from '@ticketing/errors';
import { LRUCache } from 'lru-cache';

/** Tiers remembered at once; past this, the least recently asked about are forgotten first. */
const MAX_REMEMBERED_TIERS = 10_000;

/** The smallest quantity catalog refused, and its refusal. */
interface Refusal {
  quantity: number;
  error: ApiError;
}

/**
 * Catalog's sold-out answers, remembered for a moment (decision 0037): in an on-sale rush,
 * thousands of buyers ask for a tier catalog has just refused, and each would cost a lookup, a
 * catalog call and a statement to be told the same thing. A refusal for `n` units answers
 * requests for `n` or more for `windowMs`; fewer still ask catalog. Units this process gives
 * back end every memo at once; units released elsewhere (an expired hold, more capacity) are on
 * sale again here within `windowMs`. Remembering never sells anything, so it cannot oversell.
 * A window of 0 remembers nothing.
 */
export class SoldOutMemo {
  private readonly refusals: LRUCache<string, Refusal> | null;

  constructor(windowMs: number) {
    this.refusals = windowMs > 0 ? new LRUCache({ max: MAX_REMEMBERED_TIERS, ttl: windowMs }) : null;
  }

  /** The refusal catalog would give now, as far as this process knows; null when catalog must be asked. */
  refusalFor(tierKey: string, quantity: number): ApiError | null {
    const refusal = this.refusals?.get(tierKey);
    if (!refusal || quantity < refusal.quantity) return null;
    if (quantity === refusal.quantity) return new ApiError(refusal.error.code, refusal.error.message);
    return new ApiError('sold_out', `Tier '${tierKey.slice(tierKey.lastIndexOf('/') + 1)}' has fewer than ${quantity} left.`);
  }

  /** Keeps catalog's answer if it is sold_out; any other error is not remembered. */
  remember(tierKey: string, quantity: number, error: unknown): void {
    if (!this.refusals || !(error instanceof ApiError) || error.code !== 'sold_out') return;
    const known = this.refusals.get(tierKey);
    if (!known || quantity < known.quantity) this.refusals.set(tierKey, { quantity, error });
  }

  /** Units came back to some tier: every memo may be wrong now. */
  forgetAll(): void {
    this.refusals?.clear();
  }
}
