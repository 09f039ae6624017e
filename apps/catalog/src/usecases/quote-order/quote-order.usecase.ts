import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { normalizedCode } from '../../domain/discount';
import type { OrderLine } from '../../domain/order-pricing';
import { optionalIdParam, requiredIdParam } from '@ticketing/fields';
import { validQuoteItems, validSegmentIds, type QuoteItem } from '../../domain/quote-request';
import { EventRepository } from '../../repositories/event.repository';
import { TierRepository } from '../../repositories/tier.repository';
import { OrderPricing, type QuoteOrderResult } from './order-pricing';

export interface QuoteOrderCommand {
  event_id: string;
  items: QuoteItem[];
  /** Empty when the customer entered none. */
  discount_code: string;
  /** Empty for a guest. */
  customer_id: string;
  customer_segment_ids: string[];
}

/**
 * Prices an order for one event at the tiers' current prices with the best applicable discount.
 * Reads only: nothing is reserved, so a quoted discount can still be refused at redemption.
 */
export class QuoteOrderUseCase {
  private readonly pricing: OrderPricing;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.pricing = new OrderPricing(prisma);
  }

  async execute(tenant: Tenant, command: QuoteOrderCommand): Promise<QuoteOrderResult> {
    const eventId = requiredIdParam(command.event_id, 'event_id');
    const items = validQuoteItems(command.items);
    const customerId = optionalIdParam(command.customer_id, 'customer_id');
    const segmentIds = validSegmentIds(command.customer_segment_ids);
    const discountCode = normalizedCode(command.discount_code);
    const at = this.clock();

    const { lines, currency } = await this.linesOf(tenant, eventId, items);
    return this.pricing.price(tenant, eventId, { currency, lines, discountCode, customerId, segmentIds, at });
  }

  /** The order's lines at the tiers' prices, and the event's currency, which every tier carries. */
  private async linesOf(tenant: Tenant, eventId: string, items: QuoteItem[]): Promise<{ lines: OrderLine[]; currency: string }> {
    const tiers = await new TierRepository(this.prisma).findByIds(tenant, items.map((item) => item.tier_id));
    const lines: OrderLine[] = [];
    for (const [index, item] of items.entries()) {
      const tier = tiers.get(item.tier_id);
      if (!tier || tier.event_id !== eventId) {
        // Name the event when it is the event that is missing, not only its tier.
        if (!(await new EventRepository(this.prisma).exists(tenant, eventId))) throw ApiError.resourceMissing('event', eventId, 'event_id');
        throw ApiError.resourceMissing(`tier of event ${eventId}`, item.tier_id, `items[${index}].tier_id`);
      }
      lines.push({ tier_id: tier.id, event_id: eventId, quantity: item.quantity, unit_price: tier.price });
    }
    return { lines, currency: tiers.get(items[0]!.tier_id)!.currency };
  }
}
