import type { Tenant } from '@ticketing/auth';
import { CATALOG_DISCOUNT_TOPIC } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { toTriggerFacts } from '../../domain/discount-facts';
import { assertBundleTiers } from '../../domain/discount-targets';
import { validTriggerCondition, type CatalogDiscountTrigger, type TriggerConditionInput } from '../../domain/discount-trigger';
import { DiscountTargetRepository } from '../../repositories/discount-target.repository';
import { DiscountTriggerRepository } from '../../repositories/discount-trigger.repository';
import { DiscountRepository } from '../../repositories/discount.repository';
import { existingDiscount } from '../existing-discount';

export interface CreateDiscountTriggerCommand {
  discount_id: string;
  condition: TriggerConditionInput | undefined;
}

/** Adds a condition to a discount and records `discount.trigger_added` in the same transaction. */
export class CreateDiscountTriggerUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: CreateDiscountTriggerCommand): Promise<CatalogDiscountTrigger> {
    const condition = validTriggerCondition(command.condition);
    return this.prisma.$transaction(async (tx) => {
      await existingDiscount(new DiscountRepository(tx), tenant, command.discount_id);
      if (condition.kind === 'tier_bundle') {
        assertBundleTiers(condition.tier_ids, await new DiscountTargetRepository(tx).find(tenant, { event_ids: [], tier_ids: condition.tier_ids }));
      }
      const trigger = await new DiscountTriggerRepository(tx).create(tenant, command.discount_id, condition);
      await enqueueEvent(tx, { topic: CATALOG_DISCOUNT_TOPIC, type: 'discount.trigger_added', aggregateId: trigger.discount_id, tenant, data: toTriggerFacts(trigger) });
      return trigger;
    });
  }
}
