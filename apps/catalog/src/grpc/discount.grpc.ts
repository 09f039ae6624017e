import type { catalogV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { CreateDiscountTriggerUseCase } from '../usecases/create-discount-trigger/create-discount-trigger.usecase';
import { CreateDiscountUseCase } from '../usecases/create-discount/create-discount.usecase';
import { DeactivateDiscountUseCase } from '../usecases/deactivate-discount/deactivate-discount.usecase';
import { DeleteDiscountTriggerUseCase } from '../usecases/delete-discount-trigger/delete-discount-trigger.usecase';
import { GetDiscountUseCase } from '../usecases/get-discount/get-discount.usecase';
import { ListDiscountTriggersUseCase } from '../usecases/list-discount-triggers/list-discount-triggers.usecase';
import { ListDiscountsUseCase } from '../usecases/list-discounts/list-discounts.usecase';
import { QuoteOrderUseCase } from '../usecases/quote-order/quote-order.usecase';
import { RedeemDiscountUseCase } from '../usecases/redeem-discount/redeem-discount.usecase';
import { ReleaseDiscountRedemptionUseCase } from '../usecases/release-discount-redemption/release-discount-redemption.usecase';
import { UpdateDiscountUseCase } from '../usecases/update-discount/update-discount.usecase';
import { toConditionInput, toDiscountMessage, toQuoteMessage, toRedemptionMessage, toTriggerMessage } from './discount.messages';

/** Transport only: decode, call one use case with the token's tenant, encode. */
export function discountGrpcHandlers(prisma: PrismaClient): AsyncServiceImplementation<catalogV1.DiscountServiceServer> {
  const createDiscount = new CreateDiscountUseCase(prisma);
  const getDiscount = new GetDiscountUseCase(prisma);
  const listDiscounts = new ListDiscountsUseCase(prisma);
  const updateDiscount = new UpdateDiscountUseCase(prisma);
  const deactivateDiscount = new DeactivateDiscountUseCase(prisma);
  const createTrigger = new CreateDiscountTriggerUseCase(prisma);
  const listTriggers = new ListDiscountTriggersUseCase(prisma);
  const deleteTrigger = new DeleteDiscountTriggerUseCase(prisma);
  const quoteOrder = new QuoteOrderUseCase(prisma);
  const redeemDiscount = new RedeemDiscountUseCase(prisma);
  const releaseRedemption = new ReleaseDiscountRedemptionUseCase(prisma);
  return {
    createDiscount: async (request, context) => toDiscountMessage(await createDiscount.execute(context.tenant, request)),
    getDiscount: async (request, context) => toDiscountMessage(await getDiscount.execute(context.tenant, request.id)),
    listDiscounts: async (request, context) => {
      const page = await listDiscounts.execute(context.tenant, request.page);
      return { data: page.data.map(toDiscountMessage), has_more: page.has_more };
    },
    updateDiscount: async (request, context) => toDiscountMessage(await updateDiscount.execute(context.tenant, request)),
    deactivateDiscount: async (request, context) => toDiscountMessage(await deactivateDiscount.execute(context.tenant, request.id)),
    createDiscountTrigger: async (request, context) =>
      toTriggerMessage(await createTrigger.execute(context.tenant, { discount_id: request.discount_id, condition: toConditionInput(request.condition) })),
    listDiscountTriggers: async (request, context) => {
      const page = await listTriggers.execute(context.tenant, request.discount_id, request.page);
      return { data: page.data.map(toTriggerMessage), has_more: page.has_more };
    },
    deleteDiscountTrigger: async (request, context) => deleteTrigger.execute(context.tenant, request),
    quoteOrder: async (request, context) => toQuoteMessage(await quoteOrder.execute(context.tenant, request), context.tenant.mode),
    redeemDiscount: async (request, context) => toRedemptionMessage(await redeemDiscount.execute(context.tenant, request)),
    releaseDiscountRedemption: async (request, context) => toRedemptionMessage(await releaseRedemption.execute(context.tenant, request)),
  };
}
