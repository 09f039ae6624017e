import { ApiError } from '@ticketing/errors';
import { LRUCache } from 'lru-cache';

/** Tiers remembered at once; past this, the least recently asked about are forgotten first. */
const MAX_REMEMBERED_TIERS = 10_000;

/** The smallest quantity catalog refused, with its refusal, and the largest it refused. */
interface Refusal {
  quantity: number;
  error: ApiError;
  largest: number;
}

/**
 * Catalog's sold-out answers, remembered for a moment (decision 0037): in an on-sale rush,
 * thousands of buyers ask for a tier catalog has just refused, and each would cost a lookup, a
 * catalog call and a statement to be told the same thing. Refusals for `n` to `m` units answer
 * requests for `n` to `m` for `windowMs`; others still ask catalog, since catalog refuses a
 * quantity outside the tier's per-order limits (a contiguous range, which held `n` and `m`) as
 * that, before sold_out, and this memo knows no limits. Units this process gives
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
    if (!refusal || quantity < refusal.quantity || quantity > refusal.largest) return null;
    if (quantity === refusal.quantity) return new ApiError(refusal.error.code, refusal.error.message);
    return new ApiError('sold_out', `Tier '${tierKey.slice(tierKey.lastIndexOf('/') + 1)}' has fewer than ${quantity} left.`);
  }

  /** Keeps catalog's answer if it is sold_out; any other error is not remembered. */
  remember(tierKey: string, quantity: number, error: unknown): void {
    if (!this.refusals || !(error instanceof ApiError) || error.code !== 'sold_out') return;
    const known = this.refusals.get(tierKey);
    if (!known) this.refusals.set(tierKey, { quantity, error, largest: quantity });
    else if (quantity < known.quantity) this.refusals.set(tierKey, { ...known, quantity, error }, { noUpdateTTL: true });
    else if (quantity > known.largest) this.refusals.set(tierKey, { ...known, largest: quantity }, { noUpdateTTL: true });
  }

  /** Units came back to some tier: every memo may be wrong now. */
  forgetAll(): void {
    this.refusals?.clear();
  }
}
