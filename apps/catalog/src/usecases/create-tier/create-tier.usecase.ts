import type { Tenant } from '@ticketing/auth';
import { CATALOG_EVENT_TOPIC } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { toTierFacts } from '../../domain/event-facts';
import { assertEditable } from '../../domain/event-status';
import {
  assertConsistentTier,
  assertMinimumOrderFits,
  assertSalesWindowBeforeStart,
  assertEventCurrency,
  validCapacity,
  validMaxPerOrder,
  validMinPerOrder,
  validPrice,
  validRank,
  validSalesEnd,
  validSalesStart,
  validTierName,
  type CatalogTier,
  type TierSettings,
} from '../../domain/tier';
import { EventRepository } from '../../repositories/event.repository';
import { SeatMapRepository } from '../../repositories/seat-map.repository';
import { TierRepository } from '../../repositories/tier.repository';

export interface CreateTierCommand {
  event_id: string;
  name: string;
  price: number;
  capacity: number;
  currency?: string;
  sales_start_at: string;
  sales_end_at: string;
  min_per_order?: number;
  max_per_order?: number;
  seated: boolean;
  rank: number;
}

/**
 * Adds a tier to an event that is not final, with its `tier.created` message. A seated tier
 * added to an event with a seat map has no seats in it yet, so its capacity must be 0 (decision
 * 0014): the next seat map gives it seats and capacity.
 */
export class CreateTierUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: CreateTierCommand): Promise<CatalogTier> {
    const settings: TierSettings = {
      name: validTierName(command.name),
      price: validPrice(command.price),
      capacity: validCapacity(command.capacity),
      sales_start_at: validSalesStart(command.sales_start_at),
      sales_end_at: validSalesEnd(command.sales_end_at),
      min_per_order: command.min_per_order === undefined ? 1 : validMinPerOrder(command.min_per_order),
      max_per_order: command.max_per_order === undefined ? null : validMaxPerOrder(command.max_per_order),
      seated: command.seated,
      rank: validRank(command.rank),
    };
    assertConsistentTier(settings);
    assertMinimumOrderFits(settings, 'min_per_order');
    return this.prisma.$transaction(async (tx) => {
      const event = await new EventRepository(tx).lock(tenant, command.event_id);
      if (!event) throw ApiError.resourceMissing('event', command.event_id);
      assertEditable(event.status);
      assertEventCurrency(command.currency, event.currency);
      assertSalesWindowBeforeStart(settings, event.starts_at);
      if (settings.seated && settings.capacity !== 0 && (await new SeatMapRepository(tx).exists(tenant, command.event_id))) {
        throw new ApiError(
          'parameter_invalid',
          "This event has a seat map, and a seated tier's capacity is its number of seats in it: create the tier with capacity 0, then map seats to it (PUT /v1/events/{id}/seatmap).",
          { param: 'capacity' },
        );
      }
      const tier = await new TierRepository(tx).create(tenant, command.event_id, settings);
      await enqueueEvent(tx, { topic: CATALOG_EVENT_TOPIC, type: 'tier.created', aggregateId: tier.event_id, tenant, data: toTierFacts(tier) });
      return tier;
    });
  }
}
