import type { Tenant } from '@ticketing/auth';
import { CATALOG_DISCOUNT_TOPIC } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import {
  assertValidityWindow,
  validAppliesTo,
  validDiscountCode,
  validDiscountValue,
  validRedemptionLimit,
  validValidFrom,
  validValidUntil,
  type CatalogDiscount,
  type DiscountAppliesTo,
} from '../../domain/discount';
import { toDiscountFacts } from '../../domain/discount-facts';
import { assertTargets } from '../../domain/discount-targets';
import { DiscountTargetRepository } from '../../repositories/discount-target.repository';
import { DiscountRepository } from '../../repositories/discount.repository';
import { withUniqueCode } from '../existing-discount';

/** Text fields empty and limits absent or 0 when not given. */
export interface CreateDiscountCommand {
  code: string;
  percent_off?: number;
  amount_off?: number;
  currency: string;
  applies_to?: DiscountAppliesTo;
  valid_from: string;
  valid_until: string;
  max_redemptions?: number;
  max_redemptions_per_customer?: number;
}

/** Creates a discount and, in the same transaction, the `discount.created` message. */
export class CreateDiscountUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: CreateDiscountCommand): Promise<CatalogDiscount> {
    const code = validDiscountCode(command.code);
    const value = validDiscountValue(command);
    const appliesTo = validAppliesTo(command.applies_to);
    const window = { valid_from: validValidFrom(command.valid_from), valid_until: validValidUntil(command.valid_until) };
    assertValidityWindow(window);
    const limits = {
      max_redemptions: validRedemptionLimit(command.max_redemptions, 'max_redemptions'),
      max_redemptions_per_customer: validRedemptionLimit(command.max_redemptions_per_customer, 'max_redemptions_per_customer'),
    };
    return withUniqueCode(code, () =>
      this.prisma.$transaction(async (tx) => {
        assertTargets(appliesTo, value, await new DiscountTargetRepository(tx).find(tenant, appliesTo));
        const discount = await new DiscountRepository(tx).create(tenant, { code, value, ...appliesTo, ...window, ...limits });
        await enqueueEvent(tx, { topic: CATALOG_DISCOUNT_TOPIC, type: 'discount.created', aggregateId: discount.id, tenant, data: toDiscountFacts(discount) });
        return discount;
      }),
    );
  }
}
