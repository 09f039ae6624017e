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

/** Only the fields present change; an empty sales bound or a max_per_order of 0 clears it. */
export interface UpdateTierCommand {
  event_id: string;
  id: string;
  name?: string;
  price?: number;
  capacity?: number;
  sales_start_at?: string;
  sales_end_at?: string;
  min_per_order?: number;
  max_per_order?: number;
  rank?: number;
}

function validChanges(command: UpdateTierCommand): Partial<Omit<TierSettings, 'seated'>> {
  const changes: Partial<Omit<TierSettings, 'seated'>> = {};
  if (command.name !== undefined) changes.name = validTierName(command.name);
  if (command.price !== undefined) changes.price = validPrice(command.price);
  if (command.capacity !== undefined) changes.capacity = validCapacity(command.capacity);
  if (command.sales_start_at !== undefined) changes.sales_start_at = validSalesStart(command.sales_start_at);
  if (command.sales_end_at !== undefined) changes.sales_end_at = validSalesEnd(command.sales_end_at);
  if (command.min_per_order !== undefined) changes.min_per_order = validMinPerOrder(command.min_per_order);
  if (command.max_per_order !== undefined) changes.max_per_order = validMaxPerOrder(command.max_per_order);
  if (command.rank !== undefined) changes.rank = validRank(command.rank);
  return changes;
}

/**
 * Changes a tier of an event that is not final. A new capacity is written by a conditional
 * update on the tier's row (TierRepository.setCapacity), so it never drops below what is held
 * or sold, whatever ticketing does at the same moment.
 */
export class UpdateTierUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: UpdateTierCommand): Promise<CatalogTier> {
    const { capacity, ...changes } = validChanges(command);
    if (capacity === undefined && Object.keys(changes).length === 0) throw new ApiError('parameter_missing', 'Give at least one field to change.');
    return this.prisma.$transaction(async (tx) => {
      const event = await new EventRepository(tx).lock(tenant, command.event_id);
      if (!event) throw ApiError.resourceMissing('event', command.event_id);
      assertEditable(event.status);
      const tiers = new TierRepository(tx);
      const current = await tiers.findById(tenant, command.event_id, command.id);
      if (!current) throw ApiError.resourceMissing('tier', command.id);
      if (capacity !== undefined && current.seated && (await new SeatMapRepository(tx).exists(tenant, command.event_id))) {
        throw new ApiError('parameter_invalid', "A seated tier's capacity is its number of seats in the event's seat map: change the seat map (PUT /v1/events/{id}/seatmap) instead.", {
          param: 'capacity',
        });
      }
      assertConsistentTier({ ...current, ...changes });
      // Only a change of either side is refused: a seat map may give a seated tier fewer seats than its minimum (0048).
      if (capacity !== undefined || changes.min_per_order !== undefined) {
        assertMinimumOrderFits({ ...current, ...changes, capacity: capacity ?? current.capacity }, changes.min_per_order === undefined ? 'capacity' : 'min_per_order');
      }
      assertSalesWindowBeforeStart({ ...current, ...changes }, event.starts_at);
      if (capacity !== undefined && !(await tiers.setCapacity(tenant, current.id, capacity))) {
        const committed = await tiers.findById(tenant, command.event_id, command.id);
        throw new ApiError(
          'capacity_below_committed',
          `capacity cannot drop below the ${committed!.held + committed!.sold} tickets already held or sold (${committed!.held} held, ${committed!.sold} sold).`,
          { param: 'capacity' },
        );
      }
      await tiers.update(tenant, current.id, changes);
      const tier = (await tiers.findById(tenant, command.event_id, command.id))!;
      await enqueueEvent(tx, { topic: CATALOG_EVENT_TOPIC, type: 'tier.updated', aggregateId: tier.event_id, tenant, data: toTierFacts(tier) });
      return tier;
    });
  }
}
