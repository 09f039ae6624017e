import { tenantKey, type Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { GroupCommit } from '@ticketing/db';
import type { CatalogDiscount } from '../../domain/discount';
import type { DiscountCandidate, OrderFacts } from '../../domain/discount-eligibility';
import { quoteOrder, type OrderQuote } from '../../domain/order-quote';
import { DiscountRedemptionRepository } from '../../repositories/discount-redemption.repository';
import { DiscountTriggerRepository } from '../../repositories/discount-trigger.repository';
import { DiscountRepository } from '../../repositories/discount.repository';

/** A priced order of one event, as QuoteOrder and a sale's reservation answer it. */
export interface QuoteOrderResult extends OrderQuote {
  event_id: string;
  currency: string;
  quoted_at: Date;
}

/**
 * Prices an order whose lines are known (QuoteOrder, and a sale's reservation): the discount its
 * code names, if any, and every automatic discount that could apply at the order's instant are
 * the candidates; the single best one applies. Reads only.
 *
 * Every sale's reservation looks the tenant's automatic discounts up, so during an on-sale the
 * concurrent lookups of one tenant go together (`GroupCommit`): one query, run after all of them
 * arrived, for the discounts valid at any of their instants; each order then keeps those valid
 * at its own.
 */
export class OrderPricing {
  private readonly automatic: GroupCommit<{ tenant: Tenant; at: Date }, CatalogDiscount[]>;

  constructor(private readonly prisma: PrismaClient) {
    this.automatic = new GroupCommit(async (_key, lookups) => {
      const instants = lookups.map((lookup) => lookup.at.getTime());
      const window = { from: new Date(Math.min(...instants)), to: new Date(Math.max(...instants)) };
      const found = await new DiscountRepository(this.prisma).findAutomatic(lookups[0]!.tenant, window);
      return lookups.map(() => found);
    });
  }

  /**
   * The order of one event priced at `order.at`, with the best applicable discount. `automatic`:
   * the tenant's automatic discounts at that instant, when the caller started looking them up
   * before it knew the order (`automaticAt`); looked up here otherwise.
   */
  async price(tenant: Tenant, eventId: string, order: OrderFacts, automatic?: Promise<CatalogDiscount[]>): Promise<QuoteOrderResult> {
    const quote = quoteOrder(order, await this.candidates(tenant, order.discountCode, order.customerId, order.at, automatic));
    return { ...quote, event_id: eventId, currency: order.currency, quoted_at: order.at };
  }

  /**
   * The tenant's automatic discounts that could apply at `at`, looked up together with the
   * lookups of the same moment. A sale's reservation starts this as it holds its units, so the
   * lookup runs beside the hold's statement instead of after it. The promise is marked handled:
   * a caller that fails before it prices leaves no unhandled rejection behind.
   */
  automaticAt(tenant: Tenant, at: Date): Promise<CatalogDiscount[]> {
    const lookup = this.automatic.run(tenantKey(tenant), { tenant, at });
    lookup.catch(() => undefined);
    return lookup;
  }

  /** The discount the code names, if any, and every automatic discount that could apply at `at`. */
  private async candidates(tenant: Tenant, code: string | null, customerId: string | null, at: Date, lookedUp?: Promise<CatalogDiscount[]>): Promise<DiscountCandidate[]> {
    const discounts = new DiscountRepository(this.prisma);
    const byCode = code === null ? null : await discounts.findByCode(tenant, code);
    if (code !== null && byCode === null) throw ApiError.resourceMissing('discount code', code, 'discount_code');
    const automatic = await (lookedUp ?? this.automaticAt(tenant, at));
    const all = [...(byCode ? [byCode] : []), ...automatic];
    if (all.length === 0) return [];
    const ids = all.map((discount) => discount.id);
    const [conditions, customerCounts] = await Promise.all([
      new DiscountTriggerRepository(this.prisma).conditionsOf(tenant, ids),
      customerId === null ? new Map<string, number>() : new DiscountRedemptionRepository(this.prisma).countsForCustomer(tenant, customerId, ids),
    ]);
    return all.map((discount) => ({ discount, triggers: conditions.get(discount.id) ?? [], customerRedemptions: customerCounts.get(discount.id) ?? 0 }));
  }
}
