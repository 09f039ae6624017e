import type { Tenant } from '@ticketing/auth';
import { CATALOG_DISCOUNT_TOPIC } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { toTriggerFacts } from '../../domain/discount-facts';
import { DiscountTriggerRepository } from '../../repositories/discount-trigger.repository';

export interface DeleteDiscountTriggerCommand {
  discount_id: string;
  id: string;
}

/** Removes a condition and records `discount.trigger_removed` in the same transaction. */
export class DeleteDiscountTriggerUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: DeleteDiscountTriggerCommand): Promise<{ id: string }> {
    return this.prisma.$transaction(async (tx) => {
      const triggers = new DiscountTriggerRepository(tx);
      const trigger = await triggers.findById(tenant, command.discount_id, command.id);
      // A concurrent delete may have won since the read: only the one that deleted the row publishes.
      if (!trigger || !(await triggers.delete(tenant, command.discount_id, command.id))) throw ApiError.resourceMissing('discount trigger', command.id);
      await enqueueEvent(tx, { topic: CATALOG_DISCOUNT_TOPIC, type: 'discount.trigger_removed', aggregateId: trigger.discount_id, tenant, data: toTriggerFacts(trigger) });
      return { id: trigger.id };
    });
  }
}
